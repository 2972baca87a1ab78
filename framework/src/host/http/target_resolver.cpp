#include "host/http/target_resolver.hpp"

#include <stand/cpp/error.hpp>

#include <boost/asio/steady_timer.hpp>

namespace stand::host::http {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

[[noreturn]] void refuse(const Url& url, const std::string& detail) {
    throw cpp::Error(STAND_E_INVALID_ARGUMENT, "refusing non-local target '" + url.host + "'" +
                                                   detail + ": pass --allow-remote to allow it");
}

}  // namespace

bool is_loopback(const asio::ip::address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_loopback();
    return address.is_loopback();
}

bool is_localhost_name(std::string_view host) {
    return host == "localhost" || (host.size() > 10 && host.ends_with(".localhost"));
}

bool is_local_host(std::string_view host) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    return ec ? is_localhost_name(host) : is_loopback(address);
}

std::vector<tcp::endpoint> resolve_target(asio::io_context& ioc, const Url& url, bool allow_remote,
                                          const Deadline& deadline) {
    if (url.host_is_ip) {
        const auto address = asio::ip::make_address(url.host);
        if (!allow_remote && !is_loopback(address)) refuse(url, "");
        return {tcp::endpoint(address, url.port)};
    }

    if (!allow_remote && !is_localhost_name(url.host)) refuse(url, " (only loopback addresses and localhost are allowed)");

    tcp::resolver resolver(ioc);
    asio::steady_timer timer(ioc, deadline.at);
    boost::system::error_code error;
    tcp::resolver::results_type results;
    bool timed_out = false;
    resolver.async_resolve(url.host, std::to_string(url.port),
                           [&](boost::system::error_code ec, tcp::resolver::results_type r) {
                               error = ec;
                               results = std::move(r);
                               timer.cancel();
                           });
    timer.async_wait([&](boost::system::error_code ec) {
        if (ec) return;
        timed_out = true;
        resolver.cancel();
    });
    ioc.restart();
    ioc.run();

    const std::string where = "'" + url.host + "'";
    if (error && timed_out)
        throw cpp::Error(STAND_E_TIMEOUT,
                         "resolving " + where + " timed out (" + deadline.describe() + ")");
    if (error || results.empty())
        throw cpp::Error(STAND_E_UNREACHABLE, "cannot resolve " + where + ": " +
                                                  (error ? error.message() : "no addresses"));
    std::vector<tcp::endpoint> out;
    for (const auto& entry : results) {
        if (!allow_remote && !is_loopback(entry.endpoint().address()))
            refuse(url, " (it resolves to " + entry.endpoint().address().to_string() + ")");
        out.push_back(entry.endpoint());
    }
    return out;
}

}  // namespace stand::host::http
