// One QUIC client connection on ngtcp2, driven by an Asio io_context: a
// connected UDP socket read and written in batches (quic/udp_batch: GRO and
// recvmmsg, GSO and sendmmsg, ECN), the write loop that asks the QuicApp for
// stream data, and the ngtcp2 expiry timer. Everything runs on the
// io_context's thread; no locking.
//
// Lifetime: create with std::make_shared; pending socket and timer handlers
// keep the object alive. After on_closed (or abandon()) the app is never
// called again.
#pragma once

#include "quic/http3_transport.hpp"
#include "quic/packet_obfuscator.hpp"
#include "quic/quic_app.hpp"
#include "quic/quic_tls.hpp"
#include "quic/udp_batch.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <ngtcp2/ngtcp2.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stand::quic {

enum class CongestionControl { cubic, bbr, bbr2, reno };
const char* congestion_control_name(CongestionControl cc) noexcept;
// "cubic", "bbr", "bbr2", "reno"; nullopt for anything else.
std::optional<CongestionControl> parse_congestion_control(const std::string& name);

struct QuicOptions {
    boost::asio::ip::udp::endpoint remote;
    std::optional<boost::asio::ip::address> bind_address;  // the source address; any otherwise
    CongestionControl cc = CongestionControl::cubic;
    std::chrono::nanoseconds handshake_timeout = std::chrono::seconds(10);
    std::chrono::nanoseconds idle_timeout = std::chrono::seconds(30);
    std::chrono::nanoseconds keep_alive{0};  // PING after this much silence; 0: none
    // The RTT assumed before the first sample. ngtcp2 0.12 paces the packets
    // after the first flight by it; with RFC 9002's 333 ms a request on a
    // fresh loopback connection waited ~20 ms for nothing (Debian's
    // gtlsclient does the same). The targets here answer within a few ms.
    std::chrono::nanoseconds initial_rtt = std::chrono::milliseconds(10);
    // Receive windows: per stream and for the connection.
    std::uint64_t max_stream_data = 8u << 20;
    std::uint64_t max_data = 20u << 20;
    std::uint64_t max_streams_uni = 100;      // peer-opened uni streams (HTTP/3 control, QPACK)
    std::uint64_t max_datagram_frame_size = 0;  // 0: DATAGRAM frames are not accepted
    PacketObfuscator* obfuscator = nullptr;   // owned by the caller; outlives the connection
    UdpBatching udp_batching = UdpBatching::automatic;
    const UdpSyscalls* udp_syscalls = nullptr;  // the kernel's when null; a test's to refuse one
};

struct QuicCounters {
    std::uint64_t packets_sent = 0;
    std::uint64_t packets_received = 0;
    std::uint64_t bytes_sent = 0;      // UDP payload bytes, after obfuscation
    std::uint64_t bytes_received = 0;
    // Datagrams that were no QUIC packet, dropped before ngtcp2: refused by
    // the obfuscator, empty or too short (quic/datagram_shape.hpp).
    std::uint64_t packets_dropped = 0;
};

class QuicConnection final : public Http3Transport, public std::enable_shared_from_this<QuicConnection> {
public:
    QuicConnection(boost::asio::io_context& io, const QuicTlsContext& tls, QuicOptions options, QuicApp& app);
    ~QuicConnection() override;
    QuicConnection(const QuicConnection&) = delete;
    QuicConnection& operator=(const QuicConnection&) = delete;

    // Opens the socket and sends the first Initial. Throws QuicSetupError
    // (socket or library failures); handshake failures arrive as on_closed.
    void start();

    // After the handshake. nullopt while the peer's stream limit is reached
    // (QuicApp::on_streams_available says when to try again).
    std::optional<std::int64_t> open_bidi_stream() override;
    std::optional<std::int64_t> open_uni_stream() override;
    // How many more bidi streams the peer allows now.
    std::uint64_t bidi_streams_left() const noexcept;
    std::uint64_t uni_streams_left() const noexcept override;
    void allow_peer_uni_stream() override;
    // Gives `len` received bytes of flow-control credit back to the peer.
    void consume(std::int64_t stream_id, std::size_t len) override;
    // RESET_STREAM + STOP_SENDING; STOP_SENDING only; RESET_STREAM only.
    void shutdown_stream(std::int64_t stream_id, std::uint64_t app_error) override;
    void shutdown_stream_read(std::int64_t stream_id, std::uint64_t app_error) override;
    void shutdown_stream_write(std::int64_t stream_id, std::uint64_t app_error) override;
    // Queues a DATAGRAM frame (copied); false when the peer accepts none or
    // it is larger than the peer allows.
    bool send_datagram(const std::uint8_t* data, std::size_t len);
    std::size_t max_datagram_payload() const noexcept;
    // The app has data to write: the write loop runs soon (never re-entrant).
    void signal_write() override;
    // CONNECTION_CLOSE with an application error, then on_closed.
    void close(std::uint64_t app_error, const std::string& reason);
    // Stops without a word to the peer and without calling the app.
    void abandon() noexcept;

    bool closed() const noexcept { return closed_; }
    // Inside a batch of received datagrams: QuicApp::on_datagrams_processed follows.
    bool reading() const noexcept { return reading_; }
    bool handshake_done() const noexcept { return handshake_done_; }
    std::chrono::nanoseconds handshake_time() const noexcept;
    std::string negotiated_alpn() const;
    std::string cipher() const;
    CongestionControl congestion_control() const noexcept { return options_.cc; }
    const QuicCounters& counters() const noexcept { return counters_; }
    // The UDP paths in use (after start()), with what the kernel refused.
    const UdpIoFeatures& udp_io() const noexcept { return udp_; }
    ngtcp2_conn* native() noexcept { return conn_; }

    // For the ngtcp2 callbacks (quic_connection.cpp).
    int on_handshake_completed();
    QuicApp& app() noexcept { return app_; }
    bool accepting() const noexcept { return !closed_; }
    void note_stateless_reset() noexcept { stateless_reset_ = true; }

private:
    void open_socket();  // the connected, non-blocking UDP socket; sets local_
    void receive();
    void on_readable();
    bool read_batch(std::size_t& packets);
    void on_packet(const std::uint8_t* data, std::size_t len, std::uint8_t ecn, std::uint64_t now);
    void write();
    bool write_datagrams(std::uint64_t ts, std::size_t max_size);
    std::uint8_t* packet_slot(std::size_t max_size);
    void queue_packet(const std::uint8_t* written, std::size_t len, std::uint8_t ecn);
    bool flush_packets();
    void wait_writable();
    void arm_timer();
    void on_timer();
    void expire(std::uint64_t now);
    void refused();
    void fail(int liberr, const std::string& what);
    void finish(CloseInfo info);
    void close_with(const ngtcp2_connection_close_error& error, CloseInfo info);

    boost::asio::io_context& io_;
    const QuicTlsContext& tls_;
    QuicOptions options_;
    QuicApp& app_;
    boost::asio::ip::udp::socket socket_;
    boost::asio::steady_timer timer_;
    boost::asio::ip::udp::endpoint local_;
    QuicTlsPeer peer_;
    gnutls_session_t session_ = nullptr;
    ngtcp2_conn* conn_ = nullptr;

    const UdpSyscalls& sys_;
    UdpIoFeatures udp_;
    UdpBatchSender sender_;
    bool send_blocked_ = false;  // the socket refused part of a burst (EAGAIN): it waits in sender_
    std::array<std::uint8_t, 65536> rx_plain_{};  // a deobfuscated packet
    std::array<std::uint8_t, 65536> tx_{};        // a packet before obfuscation, or a CONNECTION_CLOSE
    std::deque<std::vector<std::uint8_t>> datagrams_;

    bool closed_ = false;
    bool handshake_done_ = false;
    bool write_posted_ = false;
    bool in_write_ = false;
    bool stateless_reset_ = false;
    bool reading_ = false;                  // on_readable is handing datagrams to ngtcp2; its write() follows
    bool expiring_inline_ = false;          // arm_timer is handling a deadline already due
    bool timer_pending_ = false;            // a wait for armed_expiry_ is outstanding
    std::uint64_t armed_expiry_ = 0;
    std::uint64_t timer_generation_ = 0;
    bool waiting_writable_ = false;
    std::uint64_t started_ts_ = 0;
    std::uint64_t handshake_ts_ = 0;
    QuicCounters counters_;
};

}  // namespace stand::quic
