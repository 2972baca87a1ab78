#include "host/http/client_tls.hpp"

#include <stand/cpp/error.hpp>

#include <openssl/ssl.h>

#include <map>
#include <mutex>
#include <utility>

namespace stand::host::http {

namespace ssl = boost::asio::ssl;

namespace {

std::shared_ptr<ssl::context> make_context(const std::string& ca_file, bool insecure) {
    auto tls = std::make_shared<ssl::context>(ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(tls->native_handle(), TLS1_2_VERSION);
    tls->set_default_verify_paths();
    if (!ca_file.empty()) {
        boost::system::error_code ec;
        tls->load_verify_file(ca_file, ec);
        if (ec)
            throw cpp::Error(STAND_E_INVALID_ARGUMENT,
                             "http session option 'ca_file': cannot load '" + ca_file + "': " + ec.message());
    }
    tls->set_verify_mode(insecure ? ssl::verify_none : ssl::verify_peer);
    return tls;
}

}  // namespace

std::shared_ptr<ssl::context> client_tls_context(const std::string& ca_file, bool insecure) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, bool>, std::shared_ptr<ssl::context>> contexts;
    std::lock_guard lock(mutex);
    auto& slot = contexts[{ca_file, insecure}];
    if (!slot) {
        try {
            slot = make_context(ca_file, insecure);
        } catch (...) {
            contexts.erase({ca_file, insecure});
            throw;
        }
    }
    return slot;
}

}  // namespace stand::host::http
