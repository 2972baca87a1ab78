#include "tunnel/small_request.hpp"

namespace stand::tunnel {

std::string counted_zero_request(std::uint64_t bytes) {
    return "GET /zero?bytes=" + std::to_string(bytes) + " HTTP/1.1\r\nHost: sink\r\nConnection: close\r\n\r\n";
}

SmallRequest::SmallRequest(std::int64_t started_ns, std::function<void(SmallRequest&, bool, const std::string&)> done)
    : started_(started_ns), done_(std::move(done)) {
    parser_.reset(false);
}

void SmallRequest::finish(bool ok, const std::string& why) {
    if (finished_) return;
    finished_ = true;
    done_(*this, ok, why);
}

void SmallRequest::on_open(bool ok, const std::string& message) {
    if (!ok) finish(false, "the server refused the stream: " + message);
}

void SmallRequest::on_data(const std::uint8_t* data, std::size_t len) {
    if (finished_) return;
    bytes_in += len;
    pending_.append(reinterpret_cast<const char*>(data), len);
    std::size_t used = 0;
    const auto r = parser_.feed(pending_.data(), pending_.size(), used);
    pending_.erase(0, used);
    if (r == load::ResponseParser::Result::done)
        finish(parser_.status() == 200, "status " + std::to_string(parser_.status()));
    else if (r == load::ResponseParser::Result::error)
        finish(false, std::string("the sink's answer is not HTTP: ") + parser_.error());
}

void SmallRequest::on_end(hysteria::StreamEnd how, const std::string& why) {
    if (finished_) return;
    if (how == hysteria::StreamEnd::fin && parser_.eof() == load::ResponseParser::Result::done) {
        finish(parser_.status() == 200, "status " + std::to_string(parser_.status()));
        return;
    }
    finish(false, std::string("stream ended (") + hysteria::stream_end_name(how) + "): " + why);
}

}  // namespace stand::tunnel
