// HTTP/3 on a QUIC connection (an Http3Transport: QuicConnection, or the
// fuzz harness's) through nghttp3: the control and QPACK streams, request
// submission, and the response events. It is one part of a QuicApp: the app
// routes the QUIC events of the streams it does not own itself (everything
// but raw streams) to the matching methods here. Everything runs on the
// connection's thread.
#pragma once

#include "quic/http3_transport.hpp"
#include "quic/quic_app.hpp"

#include <nghttp3/nghttp3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stand::quic {

// Response events, keyed by the request's stream id.
class Http3Listener {
public:
    virtual ~Http3Listener() = default;
    // One field of the response header section (":status" included; an
    // interim 1xx section comes first, with its own ":status"). nghttp3 has
    // checked the field: names arrive lower-case, ":status" is three digits
    // (parse_status_field turns it into a number).
    virtual void on_header(std::int64_t stream_id, std::string_view name, std::string_view value) = 0;
    virtual void on_headers_done(std::int64_t stream_id) = 0;
    virtual void on_body(std::int64_t stream_id, const std::uint8_t* data, std::size_t len) = 0;
    // The response is complete (FIN received).
    virtual void on_end(std::int64_t stream_id) = 0;
    // The request stream is closed (after on_end, or instead of it when the
    // stream was reset: `app_error` is then not H3_NO_ERROR).
    virtual void on_stream_closed(std::int64_t stream_id, std::uint64_t app_error) = 0;
};

// The response's status from its ":status" field: 100..599, or 0 for any
// other value (not three digits, or outside the range HTTP defines).
int parse_status_field(std::string_view value) noexcept;

struct Http3Field {
    std::string name;  // lower-case
    std::string value;
};

class Http3Layer {
public:
    Http3Layer(Http3Transport& conn, Http3Listener& listener);
    ~Http3Layer();
    Http3Layer(const Http3Layer&) = delete;
    Http3Layer& operator=(const Http3Layer&) = delete;

    // After the handshake: opens the control and QPACK streams. Returns an
    // nghttp3 or ngtcp2 error code, 0 on success.
    int start();
    bool started() const noexcept { return h3_ != nullptr; }

    // Submits a request on a new bidi stream. `body` (null: none) must stay
    // valid and unchanged until the stream closes. Returns the stream id, or
    // -1 when the peer's stream limit is reached (wait for
    // QuicApp::on_streams_available) or nghttp3 refused the fields.
    std::int64_t submit(const std::vector<Http3Field>& fields, const std::string* body);

    // QUIC events for the streams that belong to HTTP/3.
    int on_stream_data(std::int64_t stream_id, const std::uint8_t* data, std::size_t len, bool fin);
    int on_acked(std::int64_t stream_id, std::uint64_t len);
    int on_stream_close(std::int64_t stream_id, std::uint64_t app_error, bool error_set);
    int on_stream_reset(std::int64_t stream_id);
    void on_stream_unblocked(std::int64_t stream_id);
    int next_chunk(StreamChunk& chunk);
    int on_written(std::int64_t stream_id, std::size_t len);
    void on_blocked(std::int64_t stream_id);
    void on_shut_write(std::int64_t stream_id);

    // For the nghttp3 callbacks (http3_layer.cpp).
    Http3Listener& listener() noexcept { return listener_; }
    Http3Transport& connection() noexcept { return conn_; }

private:
    Http3Transport& conn_;
    Http3Listener& listener_;
    nghttp3_conn* h3_ = nullptr;
    std::vector<nghttp3_vec> vecs_ = std::vector<nghttp3_vec>(16);
};

}  // namespace stand::quic
