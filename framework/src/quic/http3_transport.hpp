// What HTTP/3 (Http3Layer) needs from the QUIC connection under it: its
// streams, flow-control credit and the write loop. QuicConnection is the
// transport of every real connection; the HTTP/3 fuzz harness
// (tests/fuzz/fuzz_http3_fields.cpp) feeds Http3Layer stream bytes through
// one of its own. Every method runs on the connection's thread; after the
// connection closed they do nothing (the opens return nullopt).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace stand::quic {

class Http3Transport {
public:
    virtual ~Http3Transport() = default;

    // nullopt while the peer's stream limit is reached.
    virtual std::optional<std::int64_t> open_bidi_stream() = 0;
    virtual std::optional<std::int64_t> open_uni_stream() = 0;
    // How many more uni streams this side may open now.
    virtual std::uint64_t uni_streams_left() const noexcept = 0;
    // Lets the peer open one more uni stream (one of its own closed).
    virtual void allow_peer_uni_stream() = 0;
    // Gives `len` received bytes of flow-control credit back to the peer.
    virtual void consume(std::int64_t stream_id, std::size_t len) = 0;
    // RESET_STREAM + STOP_SENDING; STOP_SENDING only; RESET_STREAM only.
    virtual void shutdown_stream(std::int64_t stream_id, std::uint64_t app_error) = 0;
    virtual void shutdown_stream_read(std::int64_t stream_id, std::uint64_t app_error) = 0;
    virtual void shutdown_stream_write(std::int64_t stream_id, std::uint64_t app_error) = 0;
    // There is data to write: the write loop runs soon (never re-entrant).
    virtual void signal_write() = 0;
};

}  // namespace stand::quic
