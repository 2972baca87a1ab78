// One GET on its own proxy stream (the sink's /small, or /zero?bytes=N):
// done when the whole Content-Length body arrived (the seed harness's "body
// time"), failed on any other end. The owner gets one call of `done` and
// closes the stream. It counts the bytes the stream brought.
#pragma once

#include "hysteria/hysteria_client.hpp"
#include "load/response_parser.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace stand::tunnel {

inline constexpr const char* kSmallRequest = "GET /small HTTP/1.1\r\nHost: sink\r\nConnection: close\r\n\r\n";
inline constexpr const char* kZeroRequest = "GET /zero HTTP/1.1\r\nHost: sink\r\n\r\n";
// Exactly `bytes` zeros with Content-Length, the connection closed after them.
std::string counted_zero_request(std::uint64_t bytes);

class SmallRequest final : public hysteria::ProxyStreamHandler {
public:
    // `done(ok, why)`: ok when the status was 200 and the body complete.
    SmallRequest(std::int64_t started_ns, std::function<void(SmallRequest&, bool, const std::string&)> done);

    void on_open(bool ok, const std::string& message) override;
    void on_data(const std::uint8_t* data, std::size_t len) override;
    void on_end(hysteria::StreamEnd how, const std::string& why) override;

    std::int64_t started() const noexcept { return started_; }
    bool finished() const noexcept { return finished_; }
    // The owner gives up on it (timeout): counts as failed, once.
    void fail(const std::string& why) { finish(false, why); }
    std::int64_t stream_id = -1;
    std::uint64_t bytes_in = 0;  // everything the stream brought: head and body

private:
    void finish(bool ok, const std::string& why);

    std::int64_t started_;
    std::function<void(SmallRequest&, bool, const std::string&)> done_;
    load::ResponseParser parser_;
    std::string pending_;
    bool finished_ = false;
};

}  // namespace stand::tunnel
