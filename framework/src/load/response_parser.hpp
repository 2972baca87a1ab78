// A minimal incremental HTTP/1.1 response parser for the load generator:
// status line, the three headers that frame the message (Content-Length,
// Transfer-Encoding, Connection), and the body (by length, chunked, or until
// the connection closes), which is counted and never stored. It allocates
// nothing; the caller owns the bytes and keeps unconsumed ones (at most one
// incomplete header or chunk-size line) for the next call.
//
// Interim 1xx responses (100, 102, 103, ...) are skipped, at most
// kMaxInterim of them per request; a 101 is an error (the connection leaves
// HTTP/1.1, so it cannot answer a load's request); HEAD answers, 204 and 304
// have no body. Lines may end in CRLF or a bare LF. What is not a response
// fails as soon as it shows: bytes that cannot start "HTTP/1.", a status
// outside 100..599, a line over kMaxLineBytes, a header section over
// kMaxHeaderBytes (curl stops at 300 KiB, Go's client allows 5 interim
// answers). Every failure has a reason (static text) and a kind.
#pragma once

#include "load/error_kind.hpp"

#include <cstddef>
#include <cstdint>

namespace stand::load {

inline constexpr std::size_t kMaxLineBytes = 8192;
inline constexpr std::size_t kMaxHeaderBytes = 256 * 1024;
inline constexpr unsigned kMaxInterim = 16;

class ResponseParser {
public:
    enum class Result : std::uint8_t { need_more, done, error };

    // Prepares for the response to a new request.
    void reset(bool head_request) noexcept;

    // Parses data[0, n). `consumed` is how many bytes were used: on need_more
    // the rest is an incomplete line (at most kMaxLineBytes) to be passed
    // again with more bytes after it; on done the rest belongs to no
    // response (it is left over).
    Result feed(const char* data, std::size_t n, std::size_t& consumed) noexcept;

    // The peer closed the connection: completes a body delimited by the close.
    Result eof() noexcept;

    int status() const noexcept { return status_; }
    // Whether the connection may carry another request after this response.
    bool keep_alive() const noexcept { return keep_alive_; }
    std::uint64_t body_bytes() const noexcept { return body_bytes_; }
    bool chunked() const noexcept { return chunked_; }
    bool done() const noexcept { return state_ == State::done; }
    const char* error() const noexcept { return error_; }
    ErrorKind error_kind() const noexcept { return error_kind_; }
    // Where the response is (a connection that saw no byte of it is still waiting).
    // After an error: where it was when it failed.
    Phase phase() const noexcept {
        if (state_ == State::error) return failed_in_;
        return state_ == State::status_line || state_ == State::header_line ? Phase::headers : Phase::body;
    }

private:
    enum class State : std::uint8_t {
        status_line,
        header_line,
        body_length,
        body_until_close,
        chunk_size,
        chunk_ext,
        chunk_size_lf,
        chunk_data,
        chunk_data_cr,
        chunk_data_lf,
        trailer_line,
        done,
        error,
    };

    Result fail(const char* why, ErrorKind kind = ErrorKind::parse) noexcept;
    // Each returns the failure's reason, or nullptr.
    const char* status_line(const char* line, std::size_t n) noexcept;
    const char* partial_line(const char* line, std::size_t n) const noexcept;
    bool header_line(const char* line, std::size_t n) noexcept;
    void end_of_headers() noexcept;
    // feed()'s steps, inline in it (defined in response_parser.cpp, used nowhere else).
    inline Result on_line(const char* line, std::size_t len, std::size_t wire) noexcept;
    inline std::size_t take_body(std::size_t avail) noexcept;
    inline const char* on_chunk_framing(char c) noexcept;

    State state_ = State::status_line;
    bool head_ = false;
    bool http11_ = true;
    bool keep_alive_ = true;
    bool conn_close_ = false;
    bool conn_keep_alive_ = false;
    bool chunked_ = false;
    bool other_coding_ = false;
    bool has_length_ = false;
    bool chunk_digits_ = false;
    int status_ = 0;
    unsigned interim_ = 0;            // 1xx answers skipped for this request
    std::size_t header_bytes_ = 0;    // of this message's status line and headers
    std::uint64_t length_ = 0;
    std::uint64_t remaining_ = 0;
    std::uint64_t body_bytes_ = 0;
    const char* error_ = nullptr;
    ErrorKind error_kind_ = ErrorKind::parse;
    Phase failed_in_ = Phase::headers;
};

}  // namespace stand::load
