#include "load/tls_client.hpp"

#include <openssl/x509v3.h>

namespace stand::load {
namespace {

int slot_index() {
    static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
    return index;
}

// OpenSSL hands us a reference to every session the server issues; keep the newest.
int on_new_session(SSL* ssl, SSL_SESSION* session) {
    auto* slot = static_cast<SSL_SESSION**>(SSL_get_ex_data(ssl, slot_index()));
    if (slot == nullptr) return 0;
    if (*slot != nullptr) SSL_SESSION_free(*slot);
    *slot = session;
    return 1;
}

}  // namespace

TlsClient::TlsClient(const TlsOptions& options)
    : ctx_(boost::asio::ssl::context::tls_client), insecure_(options.insecure), resume_(options.resume) {
    SSL_CTX* ctx = ctx_.native_handle();
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (insecure_) {
        ctx_.set_verify_mode(boost::asio::ssl::verify_none);
    } else {
        ctx_.set_verify_mode(boost::asio::ssl::verify_peer);
        boost::system::error_code ec;
        ctx_.set_default_verify_paths(ec);
        if (!options.ca_file.empty()) {
            ctx_.load_verify_file(options.ca_file, ec);
            if (ec) throw LoadSpecError("--cacert: cannot load '" + options.ca_file + "': " + ec.message());
        }
    }
    if (resume_) {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
        SSL_CTX_sess_set_new_cb(ctx, on_new_session);
    } else {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
        SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
    }
    (void)slot_index();
}

void TlsClient::prepare(SSL* ssl, const Origin& link, SSL_SESSION** slot) const {
    if (!link.sni.empty()) SSL_set_tlsext_host_name(ssl, link.sni.c_str());
    if (!insecure_) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        if (link.sni.empty()) X509_VERIFY_PARAM_set1_ip_asc(param, link.verify_host.c_str());
        else X509_VERIFY_PARAM_set1_host(param, link.verify_host.c_str(), 0);
    }
    if (resume_ && slot != nullptr) {
        SSL_set_ex_data(ssl, slot_index(), slot);
        if (*slot != nullptr) SSL_set_session(ssl, *slot);
    }
}

}  // namespace stand::load
