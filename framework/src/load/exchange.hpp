// What an HTTP/1.1 load connection decides the same way whatever does its
// I/O (load_connection.cpp on Asio, uring_connection.cpp on io_uring):
// whether received bytes complete the response, and what the end of the
// stream means for the request under way.
#pragma once

#include "load/error_kind.hpp"
#include "load/response_parser.hpp"

#include <cstddef>
#include <cstdint>

namespace stand::load {

inline constexpr const char* kUnsolicited = "bytes after the response that no request asked for";
inline constexpr const char* kUnsolicitedIdle = "bytes on an idle kept-alive connection that no request asked for";

enum class Fed : std::uint8_t {
    need_more,    // `consumed` bytes were used; the rest (one incomplete line) comes first next time
    done,         // the response is whole and nothing follows it
    unsolicited,  // the response is whole but bytes follow it: the exchange is out of step
    error,        // not a valid answer: parser.error_kind(), parser.error()
};
Fed feed_response(ResponseParser& parser, const char* data, std::size_t n, std::size_t& consumed) noexcept;

// How the connection's byte stream ended while a request was under way.
enum class StreamEnd : std::uint8_t { eof, reset, timed_out, tls, other };

struct EndVerdict {
    enum class Action : std::uint8_t {
        complete,  // the close delimited the body: the response is whole
        retry,     // a kept-alive connection closed before our request reached it: once more on a new one
        fail,      // the request ends as `kind` (with phase_reason for where it was)
    };
    Action action;
    ErrorKind kind;
};
// `reused`: the request went on a kept-alive connection; `got_bytes`: some
// of the answer arrived; `retried`: this request was already retried once.
EndVerdict end_of_stream(StreamEnd how, ResponseParser& parser, bool reused, bool got_bytes, bool retried) noexcept;

}  // namespace stand::load
