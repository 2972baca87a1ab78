#include "target/backend.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include <sstream>
#include <stdexcept>

namespace stand::target {
namespace {

namespace json = boost::json;
namespace asio = boost::asio;
namespace http = boost::beast::http;

std::uint64_t counter(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_number()) throw std::runtime_error(std::string("backend stats without \"") + key + "\"");
    return v->to_number<std::uint64_t>();
}

}  // namespace

std::optional<json::object> backend_ready_line(const std::string& line) {
    if (line.empty() || line.front() != '{') return std::nullopt;
    boost::system::error_code ec;
    auto v = json::parse(line, ec);
    if (!ec && v.is_object() && v.as_object().contains("listen")) return v.as_object();
    return std::nullopt;
}

BackendStats backend_stats_at(const std::string& host, std::uint16_t port) {
    const std::string where = host + ":" + std::to_string(port);
    try {
        asio::io_context io;
        asio::ip::tcp::socket socket(io);
        socket.connect({asio::ip::make_address(host), port});
        http::request<http::empty_body> req{http::verb::get, "/stats", 11};
        req.set(http::field::host, where);
        req.set(http::field::connection, "close");
        http::write(socket, req);
        boost::beast::flat_buffer buffer;
        http::response<http::string_body> res;
        http::read(socket, buffer, res);
        if (res.result_int() != 200) throw std::runtime_error("HTTP " + std::to_string(res.result_int()));
        auto o = json::parse(res.body()).as_object();
        return {counter(o, "accepted"), counter(o, "open"), counter(o, "requests"), counter(o, "ws_sessions"),
                counter(o, "ws_messages")};
    } catch (const std::exception& e) {
        throw std::runtime_error("the backend's stats at " + where + " did not answer: " + e.what());
    }
}

std::optional<double> cpu_seconds_of_stat(const std::string& text, long ticks_per_second) {
    const auto paren = text.rfind(')');  // the command name may hold spaces
    if (paren == std::string::npos || paren + 2 > text.size() || ticks_per_second <= 0) return std::nullopt;
    std::istringstream fields(text.substr(paren + 2));
    std::string skip;
    for (int i = 3; i < 14; ++i) fields >> skip;  // fields 3..13: state .. cmajflt
    unsigned long long utime = 0, stime = 0;
    if (!(fields >> utime >> stime)) return std::nullopt;
    return static_cast<double>(utime + stime) / static_cast<double>(ticks_per_second);
}

}  // namespace stand::target
