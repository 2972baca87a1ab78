#include "host/http/connection.hpp"

#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

namespace stand::host::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace ssl = asio::ssl;
using boost::system::error_code;

constexpr std::uint64_t max_body_bytes = 64ull << 20;
constexpr std::uint32_t max_header_bytes = 64u << 10;

bool is_timeout(const error_code& ec) { return ec == beast::error::timeout; }

std::variant<beast::tcp_stream, ssl::stream<beast::tcp_stream>> make_stream(
    asio::io_context& ioc, ssl::context* tls) {
    using Variant = std::variant<beast::tcp_stream, ssl::stream<beast::tcp_stream>>;
    if (tls == nullptr) return Variant(std::in_place_index<0>, ioc);
    return Variant(std::in_place_index<1>, ioc, *tls);
}

}  // namespace

template <class Start>
error_code Connection::run(Start&& start) {
    error_code result;
    start([&result](error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run();
    return result;
}

beast::tcp_stream& Connection::tcp() {
    return std::visit([](auto& s) -> beast::tcp_stream& { return beast::get_lowest_layer(s); },
                      stream_);
}

Connection::Connection(asio::io_context& ioc, ssl::context* tls, bool verify, const Url& url,
                       const std::vector<asio::ip::tcp::endpoint>& endpoints,
                       const Deadline& deadline)
    : ioc_(ioc), peer_(url.authority()), stream_(make_stream(ioc, tls)) {
    tcp().expires_at(deadline.at);
    const error_code ec =
        run([&](auto handler) { tcp().async_connect(endpoints, std::move(handler)); });
    if (is_timeout(ec))
        throw cpp::Error(STAND_E_TIMEOUT,
                         "connecting to " + peer_ + " timed out (" + deadline.describe() + ")");
    if (ec)
        throw cpp::Error(STAND_E_UNREACHABLE, "cannot connect to " + peer_ + ": " + ec.message());
    if (tls != nullptr) handshake(verify, url, deadline);
}

void Connection::handshake(bool verify, const Url& url, const Deadline& deadline) {
    auto& s = std::get<TlsStream>(stream_);
    // SNI carries names only (RFC 6066).
    if (!url.host_is_ip && SSL_set_tlsext_host_name(s.native_handle(), url.host.c_str()) != 1)
        throw cpp::Error(STAND_E_IO, "TLS setup for " + peer_ + " failed: cannot set SNI");
    if (verify) {
        s.set_verify_mode(ssl::verify_peer);
        s.set_verify_callback([check = ssl::host_name_verification(url.host),
                               ip = url.host_is_ip](bool preverified, ssl::verify_context& ctx) {
            if (check(preverified, ctx)) return true;
            // Give the handshake error a reason instead of a bare "verify failed".
            if (preverified)
                X509_STORE_CTX_set_error(ctx.native_handle(), ip ? X509_V_ERR_IP_ADDRESS_MISMATCH
                                                                 : X509_V_ERR_HOSTNAME_MISMATCH);
            return false;
        });
    } else {
        s.set_verify_mode(ssl::verify_none);
    }
    tcp().expires_at(deadline.at);
    const error_code ec = run(
        [&](auto handler) { s.async_handshake(ssl::stream_base::client, std::move(handler)); });
    if (is_timeout(ec))
        throw cpp::Error(STAND_E_TIMEOUT, "TLS handshake with " + peer_ + " timed out (" +
                                              deadline.describe() + ")");
    if (ec) {
        std::string message = "TLS handshake with " + peer_ + " failed: " + ec.message();
        const long verify_result = SSL_get_verify_result(s.native_handle());
        if (verify && verify_result != X509_V_OK)
            message += std::string(" (certificate: ") +
                       X509_verify_cert_error_string(verify_result) + ")";
        throw cpp::Error(STAND_E_IO, message);
    }
}

Response Connection::exchange(const Request& request, const Deadline& deadline) {
    buffer_.clear();  // nothing may precede a response we have not asked for yet
    const std::string timed_out =
        "request to " + peer_ + " timed out (" + deadline.describe() + ")";

    tcp().expires_at(deadline.at);
    error_code ec = std::visit(
        [&](auto& s) {
            return run([&](auto on_done) {
                beast::http::async_write(s, request, std::move(on_done));
            });
        },
        stream_);
    if (is_timeout(ec)) throw cpp::Error(STAND_E_TIMEOUT, timed_out);
    if (ec) throw ConnectionLost("sending the request to " + peer_ + " failed: " + ec.message());

    beast::http::response_parser<beast::http::string_body> parser;
    parser.body_limit(max_body_bytes);
    parser.header_limit(max_header_bytes);
    parser.skip(request.method() == beast::http::verb::head);
    tcp().expires_at(deadline.at);
    ec = std::visit(
        [&](auto& s) {
            return run([&](auto on_done) {
                beast::http::async_read(s, buffer_, parser, std::move(on_done));
            });
        },
        stream_);
    if (is_timeout(ec)) throw cpp::Error(STAND_E_TIMEOUT, timed_out);
    if (ec && !parser.got_some() && buffer_.size() == 0)
        throw ConnectionLost("connection to " + peer_ +
                             " closed before a response: " + ec.message());
    if (ec)
        throw cpp::Error(STAND_E_IO,
                         "reading the response from " + peer_ + " failed: " + ec.message());

    ++exchanges_;
    tcp().expires_never();
    keep_alive_ = request.keep_alive() && parser.get().keep_alive() && !parser.need_eof();
    return parser.release();
}

}  // namespace stand::host::http
