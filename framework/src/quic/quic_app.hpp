// What runs above a QuicConnection: HTTP/3 (Http3Layer), raw streams
// (Hysteria's proxy streams), or both. Every method is called on the
// connection's io_context thread, from inside ngtcp2 callbacks or the write
// loop; a non-zero return from an int method closes the connection with
// that error (an ngtcp2 or nghttp3 error code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace stand::quic {

class QuicConnection;

// One piece of stream data the app wants written. `data` must stay valid
// (and unchanged) until the bytes are acknowledged (QuicApp::on_acked).
struct StreamChunk {
    std::int64_t stream_id = -1;  // -1: nothing to write
    const std::uint8_t* data = nullptr;
    std::size_t len = 0;
    bool fin = false;
    // nghttp3 hands out several buffers at once; the write loop passes them
    // as ngtcp2 vectors when `vecs` is set (nghttp3_vec and ngtcp2_vec have
    // the same layout).
    const void* vecs = nullptr;
    std::size_t vec_count = 0;
};

enum class CloseCause {
    local,              // this side closed it (close(), or after a local error)
    peer,               // the peer sent CONNECTION_CLOSE
    idle_timeout,       // nothing from the peer for the idle timeout
    handshake_timeout,  // no handshake within the handshake timeout
    refused,            // ICMP port unreachable: nobody listens on that UDP port
    tls,                // the TLS handshake failed (certificate, ALPN, alert)
    version_negotiation,  // the server answered with Version Negotiation: no QUIC version in common
};

// Why a connection ended.
struct CloseInfo {
    CloseCause cause = CloseCause::local;
    bool handshake_done = false;
    bool by_peer = false;      // the peer sent CONNECTION_CLOSE (or the idle timer ran out)
    bool idle_timeout = false;
    bool stateless_reset = false;  // the peer answered with a stateless reset
    std::uint64_t code = 0;    // QUIC transport or application error code
    bool application = false;  // `code` is an application (HTTP/3) code
    std::string reason;        // human readable, names the cause
};

class QuicApp {
public:
    virtual ~QuicApp() = default;

    virtual int on_handshake_completed(QuicConnection& conn) = 0;
    // Stream data in order. The app gives flow-control credit back with
    // QuicConnection::consume when it has used the bytes.
    virtual int on_stream_data(std::int64_t stream_id, const std::uint8_t* data, std::size_t len, bool fin) = 0;
    virtual int on_acked(std::int64_t stream_id, std::uint64_t len) = 0;
    virtual int on_stream_close(std::int64_t stream_id, std::uint64_t app_error, bool error_set) = 0;
    virtual int on_stream_reset(std::int64_t stream_id, std::uint64_t app_error) = 0;
    virtual int on_stream_stop_sending(std::int64_t stream_id, std::uint64_t app_error) = 0;
    virtual void on_stream_unblocked(std::int64_t stream_id) = 0;
    virtual void on_streams_available() = 0;  // the peer raised the bidi stream limit
    virtual void on_datagram(const std::uint8_t* data, std::size_t len) = 0;

    // The write loop asks for the next chunk; it reports what went out.
    virtual int next_chunk(StreamChunk& chunk) = 0;
    virtual int on_written(std::int64_t stream_id, std::size_t len) = 0;
    virtual void on_blocked(std::int64_t stream_id) = 0;   // stream flow control is exhausted
    virtual void on_shut_write(std::int64_t stream_id) = 0;  // the stream cannot be written any more

    // A batch of datagrams was handed to ngtcp2 and the connection writes
    // next (its ACKs, and what the app queues now, in one burst): the place
    // to start new streams after responses ended in the callbacks above,
    // outside them and without a post. Not from inside ngtcp2.
    virtual void on_datagrams_processed() {}

    // The connection is gone (after the handshake or not). Called once.
    virtual void on_closed(const CloseInfo& info) = 0;
};

}  // namespace stand::quic
