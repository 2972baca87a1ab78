#include "scenario/steps/proxy_setup.hpp"

#include "tls/test_certificates.hpp"

namespace stand::scenario {

namespace json = boost::json;

ProxySetup compose_proxy_setup(const ConfigureStep& step, const std::optional<UpstreamAddress>& backend,
                               const std::filesystem::path& cert_dir, const ProxyTls& previous) {
    ProxySetup out{step.knobs, previous};
    if (backend && !out.knobs.contains("upstreams"))
        out.knobs["upstreams"] = json::array{json::object{{"host", backend->host}, {"port", backend->port}}};
    if (step.upstream_keepalive) out.knobs["upstream_keepalive"] = *step.upstream_keepalive;
    if (step.websocket) out.knobs["websocket"] = *step.websocket;
    if (step.tls) {
        json::object listen = out.knobs.contains("listen") && out.knobs["listen"].is_object()
                                  ? out.knobs["listen"].as_object()
                                  : json::object{};
        if (*step.tls == "off") {
            listen["tls"] = false;
            out.tls = {};
        } else {
            // Absolute: a proxy resolves a relative path against its own prefix.
            const auto files = tls::ensure_test_certificate(std::filesystem::absolute(cert_dir), *step.tls);
            listen["tls"] = true;
            out.knobs["tls_key"] = json::object{{"cert_file", files.cert_file.string()},
                                                {"key_file", files.key_file.string()}};
            out.tls = {*step.tls, files.cert_file};
        }
        out.knobs["listen"] = std::move(listen);
    }
    return out;
}

}  // namespace stand::scenario
