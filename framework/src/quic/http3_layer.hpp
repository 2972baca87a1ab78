// HTTP/3 on a QuicConnection through nghttp3: the control and QPACK
// streams, request submission, and the response events. It is one part of
// a QuicApp: the app routes the QUIC events of the streams it does not own
// itself (everything but raw streams) to the matching methods here.
// Everything runs on the connection's thread.
#pragma once

#include "quic/quic_app.hpp"

#include <nghttp3/nghttp3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stand::quic {

class QuicConnection;

// Response events, keyed by the request's stream id.
class Http3Listener {
public:
    virtual ~Http3Listener() = default;
    // One field of the response header section (":status" included);
    // names arrive lower-case.
    virtual void on_header(std::int64_t stream_id, std::string_view name, std::string_view value) = 0;
    virtual void on_headers_done(std::int64_t stream_id) = 0;
    virtual void on_body(std::int64_t stream_id, const std::uint8_t* data, std::size_t len) = 0;
    // The response is complete (FIN received).
    virtual void on_end(std::int64_t stream_id) = 0;
    // The request stream is closed (after on_end, or instead of it when the
    // stream was reset: `app_error` is then not H3_NO_ERROR).
    virtual void on_stream_closed(std::int64_t stream_id, std::uint64_t app_error) = 0;
};

struct Http3Field {
    std::string name;  // lower-case
    std::string value;
};

class Http3Layer {
public:
    Http3Layer(QuicConnection& conn, Http3Listener& listener);
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
    QuicConnection& connection() noexcept { return conn_; }

private:
    QuicConnection& conn_;
    Http3Listener& listener_;
    nghttp3_conn* h3_ = nullptr;
    std::vector<nghttp3_vec> vecs_ = std::vector<nghttp3_vec>(16);
};

}  // namespace stand::quic
