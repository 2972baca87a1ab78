// A Hysteria 2 client connection: QUIC with ALPN h3, the HTTP/3 auth
// request (POST https://hysteria/auth, status 233 = accepted), then raw
// proxy streams (0x401 TCPRequest; no HTTP/3 framing) that relay bytes to a
// "host:port" behind the server. Congestion control is ngtcp2's (cubic or
// BBR): Brutal is not available in ngtcp2 0.12, so the client sends
// Hysteria-CC-RX: 0, which the protocol allows. Everything runs on the
// io_context's thread.
#pragma once

#include "quic/http3_layer.hpp"
#include "quic/quic_app.hpp"
#include "quic/quic_connection.hpp"
#include "quic/udp_io_summary.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

namespace stand::hysteria {

enum class StreamEnd {
    fin,              // the server finished the stream (the target closed)
    reset,            // the stream was reset (or refused by the server)
    connection_lost,  // the QUIC connection ended under it
    closed_locally,   // we closed it
};
const char* stream_end_name(StreamEnd end) noexcept;

// The events of one proxy stream; the object must outlive the stream (until
// on_end).
class ProxyStreamHandler {
public:
    virtual ~ProxyStreamHandler() = default;
    // The server's TCPResponse: ok, or refused with its message.
    virtual void on_open(bool ok, const std::string& message) = 0;
    virtual void on_data(const std::uint8_t* data, std::size_t len) = 0;
    virtual void on_end(StreamEnd how, const std::string& why) = 0;
};

struct HysteriaEvents {
    std::function<void()> on_ready;  // authenticated; proxy streams may open
    // The connection ended (`authenticated`: it had reached on_ready).
    std::function<void(const quic::CloseInfo& info, bool authenticated)> on_closed;
    std::function<void()> on_streams_available;
};

class HysteriaClient final : public quic::QuicApp, public quic::Http3Listener {
public:
    HysteriaClient(boost::asio::io_context& io, const quic::QuicTlsContext& tls, quic::QuicOptions options,
                   std::string auth, HysteriaEvents events);
    ~HysteriaClient() override;

    // The download rate to declare at auth (Hysteria-CC-RX, bytes/s), as a
    // client's bandwidth.down does; 0 (the default) declares none.
    void declare_rx(std::uint64_t bytes_per_second) noexcept { rx_bytes_per_second_ = bytes_per_second; }
    // Starts the handshake (throws quic::QuicSetupError on socket failures).
    void connect();
    bool ready() const noexcept { return authenticated_ && conn_ && !conn_->closed(); }
    bool closed() const noexcept { return !conn_ || conn_->closed(); }

    // A proxy stream to `address`; -1 when not ready or the server's stream
    // limit is reached (HysteriaEvents::on_streams_available says when).
    std::int64_t open_tcp(const std::string& address, ProxyStreamHandler& handler);
    // Queues bytes on a proxy stream; `fin` ends our direction.
    void send(std::int64_t stream_id, const std::string& data, bool fin);
    // As the Go client's Close: STOP_SENDING(0) and FIN. No more events.
    void close_stream(std::int64_t stream_id);
    // CONNECTION_CLOSE with H3_NO_ERROR; on_closed follows.
    void close();
    void abandon() noexcept;

    std::chrono::nanoseconds handshake_time() const noexcept;
    std::chrono::nanoseconds auth_time() const noexcept { return auth_time_; }  // connect() to status 233
    const std::string& server_udp() const noexcept { return server_udp_; }
    const std::string& server_cc_rx() const noexcept { return server_cc_rx_; }
    std::size_t open_streams() const noexcept { return streams_.size(); }
    const quic::QuicConnection* connection() const noexcept { return conn_.get(); }
    // The UDP paths and datagrams of every connection this client made.
    quic::UdpIoSummary udp_io() const;

    // quic::QuicApp
    int on_handshake_completed(quic::QuicConnection& conn) override;
    int on_stream_data(std::int64_t id, const std::uint8_t* data, std::size_t len, bool fin) override;
    int on_acked(std::int64_t id, std::uint64_t len) override;
    int on_stream_close(std::int64_t id, std::uint64_t code, bool set) override;
    int on_stream_reset(std::int64_t id, std::uint64_t code) override;
    int on_stream_stop_sending(std::int64_t id, std::uint64_t code) override;
    void on_stream_unblocked(std::int64_t id) override;
    void on_streams_available() override;
    void on_datagram(const std::uint8_t*, std::size_t) override {}
    int next_chunk(quic::StreamChunk& chunk) override;
    int on_written(std::int64_t id, std::size_t len) override;
    void on_blocked(std::int64_t id) override;
    void on_shut_write(std::int64_t id) override;
    void on_closed(const quic::CloseInfo& info) override;

    // quic::Http3Listener (the auth request only)
    void on_header(std::int64_t id, std::string_view name, std::string_view value) override;
    void on_headers_done(std::int64_t id) override;
    void on_body(std::int64_t, const std::uint8_t*, std::size_t) override {}
    void on_end(std::int64_t) override {}
    void on_stream_closed(std::int64_t, std::uint64_t) override {}

private:
    struct RawStream;
    void end_stream(std::int64_t id, StreamEnd how, const std::string& why);
    void queue_write(std::int64_t id);

    boost::asio::io_context& io_;
    const quic::QuicTlsContext& tls_;
    quic::QuicOptions options_;
    std::string auth_;
    HysteriaEvents events_;
    std::shared_ptr<quic::QuicConnection> conn_;
    std::shared_ptr<quic::QuicConnection> retired_;  // the last one abandon() ended
    quic::UdpIoSummary udp_done_;                    // connections before it
    std::unique_ptr<quic::Http3Layer> h3_;
    std::unordered_map<std::int64_t, std::unique_ptr<RawStream>> streams_;
    std::deque<std::int64_t> write_queue_;
    std::int64_t auth_stream_ = -1;
    std::uint64_t rx_bytes_per_second_ = 0;
    int auth_status_ = 0;
    bool authenticated_ = false;
    std::string server_udp_;
    std::string server_cc_rx_;
    std::chrono::steady_clock::time_point connect_started_;
    std::chrono::nanoseconds auth_time_{0};
};

}  // namespace stand::hysteria
