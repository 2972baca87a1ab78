#include "load/response_parser.hpp"

#include <cstring>

namespace stand::load {
namespace {

inline char lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// `name` (lower-case) equals s[0, n) ignoring ASCII case.
bool iequals(const char* s, std::size_t n, const char* name, std::size_t name_len) noexcept {
    if (n != name_len) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (lower(s[i]) != name[i]) return false;
    return true;
}

inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

void trim(const char*& s, std::size_t& n) noexcept {
    while (n > 0 && is_blank(*s)) ++s, --n;
    while (n > 0 && is_blank(s[n - 1])) --n;
}

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Calls f(token, length) for each comma-separated, trimmed, non-empty token.
template <class F>
void for_each_token(const char* s, std::size_t n, F&& f) noexcept {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= n; ++i) {
        if (i == n || s[i] == ',') {
            const char* t = s + start;
            std::size_t len = i - start;
            trim(t, len);
            if (len > 0) f(t, len);
            start = i + 1;
        }
    }
}

constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 60;

}  // namespace

void ResponseParser::reset(bool head_request) noexcept {
    *this = ResponseParser{};
    head_ = head_request;
}

ResponseParser::Result ResponseParser::fail(const char* why, ErrorKind kind) noexcept {
    failed_in_ = phase();
    state_ = State::error;
    error_ = why;
    error_kind_ = kind;
    return Result::error;
}

namespace {

constexpr const char* kNoStatusLine = "no HTTP/1.x status line";
static_assert(kMaxLineBytes == 8192 && kMaxHeaderBytes == 256 * 1024 && kMaxInterim == 16,
              "the failure reasons name these bounds");

}  // namespace

const char* ResponseParser::status_line(const char* line, std::size_t n) noexcept {
    // "HTTP/1.x SSS[ reason]"
    if (n < 7 || std::memcmp(line, "HTTP/1.", 7) != 0) return kNoStatusLine;
    if (n < 12 || (line[7] != '0' && line[7] != '1') || line[8] != ' ') return "malformed status line";
    int code = 0;
    for (int i = 9; i < 12; ++i) {
        if (line[i] < '0' || line[i] > '9') return "malformed status line";
        code = code * 10 + (line[i] - '0');
    }
    if (n > 12 && line[12] != ' ') return "malformed status line";
    if (code < 100 || code > 599) return "status code outside 100..599";
    status_ = code;
    http11_ = line[7] == '1';
    return nullptr;
}

// The start of a line that has no end yet: whether it can still become one.
const char* ResponseParser::partial_line(const char* line, std::size_t n) const noexcept {
    if (n > kMaxLineBytes) return "header line longer than 8 KiB";
    if (header_bytes_ + n > kMaxHeaderBytes) return "headers longer than 256 KiB";
    // Not HTTP at all (HTTP/0.9, another protocol): say so now, not at the timeout.
    if (state_ == State::status_line && std::memcmp(line, "HTTP/1.", n < 7 ? n : 7) != 0) return kNoStatusLine;
    return nullptr;
}

bool ResponseParser::header_line(const char* line, std::size_t n) noexcept {
    const void* colon_ptr = std::memchr(line, ':', n);
    if (colon_ptr == nullptr) return false;
    const auto colon = static_cast<std::size_t>(static_cast<const char*>(colon_ptr) - line);
    if (colon == 0 || is_blank(line[colon - 1])) return false;
    const char* value = line + colon + 1;
    std::size_t len = n - colon - 1;
    switch (colon) {
    case 14:
        if (iequals(line, colon, "content-length", 14)) {
            trim(value, len);
            if (len == 0 || len > 18) return false;
            std::uint64_t v = 0;
            for (std::size_t i = 0; i < len; ++i) {
                if (value[i] < '0' || value[i] > '9') return false;
                v = v * 10 + static_cast<unsigned>(value[i] - '0');
            }
            if (has_length_ && v != length_) return false;
            has_length_ = true;
            length_ = v;
        }
        break;
    case 17:
        if (iequals(line, colon, "transfer-encoding", 17)) {
            // Chunked only when it is the last coding; anything else is read to the close.
            bool last_chunked = false;
            for_each_token(value, len, [&](const char* t, std::size_t tl) {
                last_chunked = iequals(t, tl, "chunked", 7);
            });
            chunked_ = last_chunked;
            other_coding_ = !last_chunked;
        }
        break;
    case 10:
        if (iequals(line, colon, "connection", 10)) {
            for_each_token(value, len, [&](const char* t, std::size_t tl) {
                if (iequals(t, tl, "close", 5)) conn_close_ = true;
                else if (iequals(t, tl, "keep-alive", 10)) conn_keep_alive_ = true;
            });
        }
        break;
    default: break;
    }
    return true;
}

// Decides how the body is framed; after an interim 1xx, waits for the real response.
void ResponseParser::end_of_headers() noexcept {
    if (status_ < 200) {
        const bool head = head_;
        const unsigned interim = interim_ + 1;
        reset(head);
        interim_ = interim;
        return;
    }
    keep_alive_ = http11_ ? !conn_close_ : (conn_keep_alive_ && !conn_close_);
    if (head_ || status_ == 204 || status_ == 304) {
        state_ = State::done;
    } else if (chunked_) {
        state_ = State::chunk_size;
    } else if (other_coding_ || !has_length_) {
        state_ = State::body_until_close;
        keep_alive_ = false;
    } else if (length_ == 0) {
        state_ = State::done;
    } else {
        remaining_ = length_;
        state_ = State::body_length;
    }
}

// One complete line of the status, headers or trailers (`len` without its
// line end, `wire` with it): error when it failed, else need_more.
inline ResponseParser::Result ResponseParser::on_line(const char* line, std::size_t len, std::size_t wire) noexcept {
    if (const char* why = partial_line(line, wire)) return fail(why);
    header_bytes_ += wire;
    // RFC 9110 5.5: a field value with a NUL is invalid, never a header to act on.
    if (std::memchr(line, '\0', len) != nullptr) return fail("NUL byte in the status line, a header or a trailer");
    if (state_ == State::status_line) {
        if (const char* why = status_line(line, len)) return fail(why);
        if (status_ == 101)
            return fail("101 Switching Protocols: the connection left HTTP/1.1", ErrorKind::protocol);
        if (status_ < 200 && interim_ >= kMaxInterim)
            return fail("more than 16 interim (1xx) answers", ErrorKind::protocol);
        state_ = State::header_line;
    } else if (state_ == State::trailer_line) {
        if (len == 0) state_ = State::done;
    } else if (len == 0) {
        end_of_headers();
    } else if (!header_line(line, len)) {
        return fail("malformed header");
    }
    return Result::need_more;
}

// Counts what of `avail` bytes belongs to the body part still expected; how many that is.
inline std::size_t ResponseParser::take_body(std::size_t avail) noexcept {
    const std::size_t take = remaining_ < avail ? static_cast<std::size_t>(remaining_) : avail;
    remaining_ -= take;
    body_bytes_ += take;
    return take;
}

// One byte of a chunk-size line or of the CRLF after chunk data; the failure, or nullptr.
inline const char* ResponseParser::on_chunk_framing(char c) noexcept {
    bool line_done = false;
    switch (state_) {
    case State::chunk_size: {
        const int h = hex_value(c);
        if (h >= 0) {
            if (remaining_ >= kMaxChunk) return "chunk size too large";
            remaining_ = remaining_ * 16 + static_cast<unsigned>(h);
            chunk_digits_ = true;
        } else if (!chunk_digits_) {
            return "malformed chunk size";
        } else if (c == ';' || is_blank(c)) {
            state_ = State::chunk_ext;
        } else if (c == '\r') {
            state_ = State::chunk_size_lf;
        } else if (c == '\n') {
            line_done = true;
        } else {
            return "malformed chunk size";
        }
        break;
    }
    case State::chunk_ext:
        line_done = c == '\n';
        break;
    case State::chunk_size_lf:
        if (c != '\n') return "malformed chunk size line";
        line_done = true;
        break;
    case State::chunk_data_cr:
        if (c == '\r') {
            state_ = State::chunk_data_lf;
        } else if (c == '\n') {
            state_ = State::chunk_size;
            chunk_digits_ = false;
        } else {
            return "missing CRLF after chunk data";
        }
        break;
    default:  // chunk_data_lf
        if (c != '\n') return "missing CRLF after chunk data";
        state_ = State::chunk_size;
        chunk_digits_ = false;
        break;
    }
    // A complete chunk-size line: its data follows, or the trailers after the last chunk.
    if (line_done) state_ = remaining_ == 0 ? State::trailer_line : State::chunk_data;
    return nullptr;
}

ResponseParser::Result ResponseParser::feed(const char* data, std::size_t n, std::size_t& consumed) noexcept {
    std::size_t pos = 0;
    for (;;) {
        switch (state_) {
        case State::status_line:
        case State::header_line:
        case State::trailer_line: {
            const void* nl = std::memchr(data + pos, '\n', n - pos);
            if (nl == nullptr) {
                consumed = pos;
                if (const char* why = partial_line(data + pos, n - pos)) return fail(why);
                return Result::need_more;
            }
            const auto end = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
            std::size_t len = end - pos;
            const std::size_t wire = len + 1;
            if (len > 0 && data[pos + len - 1] == '\r') --len;
            const char* line = data + pos;
            pos = end + 1;
            if (on_line(line, len, wire) == Result::error) {
                consumed = pos;
                return Result::error;
            }
            break;
        }
        case State::body_length:
            pos += take_body(n - pos);
            if (remaining_ == 0) {
                state_ = State::done;
                break;
            }
            consumed = pos;
            return Result::need_more;
        case State::chunk_data:
            pos += take_body(n - pos);
            if (remaining_ == 0) {
                state_ = State::chunk_data_cr;
                break;
            }
            consumed = pos;
            return Result::need_more;
        case State::body_until_close:
            body_bytes_ += n - pos;
            consumed = n;
            return Result::need_more;
        case State::chunk_size:
        case State::chunk_ext:
        case State::chunk_size_lf:
        case State::chunk_data_cr:
        case State::chunk_data_lf:
            if (pos == n) {
                consumed = pos;
                return Result::need_more;
            }
            if (const char* why = on_chunk_framing(data[pos++])) {
                consumed = pos;
                return fail(why);
            }
            break;
        case State::done:
            consumed = pos;
            return Result::done;
        case State::error:
            consumed = pos;
            return Result::error;
        }
    }
}

ResponseParser::Result ResponseParser::eof() noexcept {
    if (state_ == State::body_until_close) {
        state_ = State::done;
        return Result::done;
    }
    if (state_ == State::done) return Result::done;
    return fail("connection closed before the response was complete");
}

}  // namespace stand::load
