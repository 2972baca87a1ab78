// The knobs a `configure` step sends to a stand.proxy/1 plugin: the step's
// own knobs, the scenario's backend as the upstream, and the host's shared
// test certificate of the asked key type.
#pragma once

#include "scenario/steps/proxy.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace stand::scenario {

struct UpstreamAddress {
    std::string host;
    std::uint16_t port = 0;
};

// What the proxy was last told about TLS, for the load steps that follow.
struct ProxyTls {
    std::string key_type;                       // empty: plain HTTP
    std::optional<std::filesystem::path> ca_file;  // the served certificate, trusted by the generator
};

struct ProxySetup {
    boost::json::object knobs;
    ProxyTls tls;
};

// `previous` is what earlier configure steps of the repetition set up: a
// step without "tls" leaves TLS as it was. Certificates are made once in
// `cert_dir` (tls::ensure_test_certificate) and shared by every plugin.
ProxySetup compose_proxy_setup(const ConfigureStep& step, const std::optional<UpstreamAddress>& backend,
                               const std::filesystem::path& cert_dir, const ProxyTls& previous);

}  // namespace stand::scenario
