#include "compat/link_host.hpp"

#include "host/http/target_resolver.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/ip/address.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace stand::compat {

namespace {

LinkHost of_addresses(std::vector<std::string> addresses, const std::string& source) {
    const bool loopback = std::all_of(addresses.begin(), addresses.end(), [](const std::string& a) {
        return host::http::is_loopback(boost::asio::ip::make_address(a));
    });
    if (loopback) return {LinkPlace::here, std::move(addresses), ""};
    return {LinkPlace::elsewhere, std::move(addresses),
            "not a loopback address" + source + ": stand compat connects to this machine's loopback only"};
}

}  // namespace

std::vector<std::string> hosts_file_addresses(std::string_view name, const std::filesystem::path& hosts_file) {
    std::vector<std::string> out;
    std::ifstream in(hosts_file);
    std::string line;
    while (std::getline(in, line)) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string address, alias;
        if (!(words >> address)) continue;
        boost::system::error_code ec;
        const auto parsed = boost::asio::ip::make_address(address, ec);
        if (ec) continue;
        while (words >> alias)
            if (boost::algorithm::iequals(alias, name) &&
                std::find(out.begin(), out.end(), parsed.to_string()) == out.end())
                out.push_back(parsed.to_string());
    }
    return out;
}

LinkHost place_of(const std::string& host, const std::filesystem::path& hosts_file) {
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(host, ec);
    if (!ec) return of_addresses({address.to_string()}, "");
    if (host::http::is_localhost_name(host)) return {LinkPlace::here, {"127.0.0.1", "::1"}, ""};
    if (auto found = hosts_file_addresses(host, hosts_file); !found.empty())
        return of_addresses(std::move(found), " (by " + hosts_file.string() + ")");
    if (boost::algorithm::iends_with(host, ".test"))
        return {LinkPlace::elsewhere, {}, "a .test name " + hosts_file.string() + " does not give: nothing here serves it"};
    return {LinkPlace::nowhere, {},
            "no address and not in " + hosts_file.string() + "; stand compat looks no name up in DNS"};
}

}  // namespace stand::compat
