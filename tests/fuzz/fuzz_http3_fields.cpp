// An HTTP/3 server's answer as the load engine and the Hysteria client read
// it: the bytes of the server's control, QPACK encoder and decoder streams and
// of one request stream, fed through the real Http3Layer (nghttp3's framing
// and QPACK, quic/http3_layer.cpp's callbacks) over a transport that hands
// out stream ids, and the fields read as the clients read them
// (parse_status_field). The promises checked are the ones Http3Listener
// documents and the clients rely on.
// Input: records of [target][length, 2 bytes little-endian][bytes]; target
// & 3 picks the request stream or the server's uni stream 3, 7 or 11
// (control, QPACK encoder, QPACK decoder once their type byte says so),
// target & 4 ends that stream (FIN).
#include "fuzz_input.hpp"
#include "quic/http3_layer.hpp"

#include <ngtcp2/ngtcp2.h>

#include <array>
#include <vector>

using stand::fuzz::check;
namespace quic = stand::quic;

namespace {

class Transport final : public quic::Http3Transport {
public:
    std::optional<std::int64_t> open_bidi_stream() override { return next_bidi_ += 4, next_bidi_ - 4; }
    std::optional<std::int64_t> open_uni_stream() override { return next_uni_ += 4, next_uni_ - 4; }
    std::uint64_t uni_streams_left() const noexcept override { return 100; }
    void allow_peer_uni_stream() override {}
    void consume(std::int64_t, std::size_t len) override { consumed += len; }
    void shutdown_stream(std::int64_t, std::uint64_t) override {}
    void shutdown_stream_read(std::int64_t, std::uint64_t) override {}
    void shutdown_stream_write(std::int64_t, std::uint64_t) override {}
    void signal_write() override {}

    std::uint64_t consumed = 0;

private:
    std::int64_t next_bidi_ = 0;  // client-initiated bidi: 0, 4, 8, ...
    std::int64_t next_uni_ = 2;   // client-initiated uni: 2, 6, 10, ...
};

// What the load engine's listener keeps (load/http3_worker.cpp), with the
// promises of Http3Listener checked on every event.
class Listener final : public quic::Http3Listener {
public:
    std::int64_t request = -1;
    int status = 0;
    std::uint64_t body = 0;
    bool ended = false;
    bool closed = false;

    void on_header(std::int64_t id, std::string_view name, std::string_view value) override {
        check(id == request && !closed, "fields arrive only on the open request stream");
        for (char c : name) check(c < 'A' || c > 'Z', "field names arrive lower-case");
        if (name != ":status") return;
        check(value.size() == 3, ":status arrives as three digits");
        for (char c : value) check(c >= '0' && c <= '9', ":status arrives as three digits");
        status = quic::parse_status_field(value);
        check(status == 0 || (status >= 100 && status <= 599), "a status is 0 or in 100..599");
    }
    void on_headers_done(std::int64_t id) override { check(id == request && !closed, "on the request stream"); }
    void on_body(std::int64_t id, const std::uint8_t*, std::size_t len) override {
        check(id == request && !closed && !ended, "body only on the open request stream, before its end");
        body += len;
    }
    void on_end(std::int64_t id) override {
        check(id == request && !closed && !ended, "one end, on the open request stream");
        ended = true;
    }
    void on_stream_closed(std::int64_t id, std::uint64_t) override {
        check(id == request && !closed, "the request stream closes once");
        closed = true;
    }
};

// Writes whatever nghttp3 has queued, as the write loop would, and
// acknowledges it at once.
void drain(quic::Http3Layer& h3) {
    for (int i = 0; i < 64; ++i) {
        quic::StreamChunk chunk;
        if (h3.next_chunk(chunk) != 0 || chunk.stream_id < 0) return;
        std::size_t len = 0;
        const auto* vecs = static_cast<const nghttp3_vec*>(chunk.vecs);
        for (std::size_t v = 0; v < chunk.vec_count; ++v) len += vecs[v].len;
        if (len == 0 && !chunk.fin) return;
        if (h3.on_written(chunk.stream_id, len) != 0 || h3.on_acked(chunk.stream_id, len) != 0) return;
    }
}

constexpr std::array<std::int64_t, 3> kServerUni = {3, 7, 11};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    Transport transport;
    Listener listener;
    quic::Http3Layer h3(transport, listener);
    check(h3.start() == 0, "HTTP/3 starts on a transport with stream credit");
    drain(h3);
    listener.request = h3.submit({{":method", "GET"}, {":scheme", "https"}, {":authority", "127.0.0.1:8443"},
                                  {":path", "/"}, {"user-agent", "stand-fuzz"}},
                                 nullptr);
    check(listener.request == 0, "the first request goes on stream 0");
    drain(h3);

    std::uint64_t fed = 0;
    while (!in.empty()) {
        const std::uint8_t target = in.byte();
        const std::uint8_t lo = in.byte();
        const std::size_t length = lo | (std::size_t{in.byte()} << 8);
        const std::string_view bytes = in.take(length);
        const std::int64_t stream = (target & 3) == 0 ? listener.request : kServerUni[(target & 3) - 1];
        const bool fin = (target & 4) != 0;
        const int rv = h3.on_stream_data(stream, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(),
                                         fin);
        if (rv != 0) return 0;  // the connection closes with that error: nothing more is read
        fed += bytes.size();
        drain(h3);
        if (fin && stream == listener.request) {
            if (h3.on_stream_close(stream, 0, false) != 0) return 0;
        }
    }
    check(transport.consumed <= fed, "no more flow-control credit given back than bytes received");
    return 0;
}
