#include "quic/quic_connection.hpp"

#include "quic/datagram_shape.hpp"
#include "quic/quic_clock.hpp"
#include "quic/quic_error.hpp"

#include <boost/asio/post.hpp>

#include <gnutls/crypto.h>
#include <ngtcp2/ngtcp2_crypto.h>

#include <algorithm>
#include <cstring>

namespace stand::quic {
namespace {

namespace asio = boost::asio;
using udp = asio::ip::udp;

QuicConnection& self_of(void* user_data) { return *static_cast<QuicConnection*>(user_data); }

int cb_handshake_completed(ngtcp2_conn*, void* user_data) {
    return self_of(user_data).on_handshake_completed() == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_recv_stream_data(ngtcp2_conn*, std::uint32_t flags, std::int64_t stream_id, std::uint64_t,
                        const std::uint8_t* data, std::size_t len, void* user_data, void*) {
    auto& self = self_of(user_data);
    if (!self.accepting()) return 0;
    bool fin = (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0;
    return self.app().on_stream_data(stream_id, data, len, fin) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_acked_stream_data_offset(ngtcp2_conn*, std::int64_t stream_id, std::uint64_t, std::uint64_t len,
                                void* user_data, void*) {
    auto& self = self_of(user_data);
    if (!self.accepting()) return 0;
    return self.app().on_acked(stream_id, len) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_stream_close(ngtcp2_conn*, std::uint32_t flags, std::int64_t stream_id, std::uint64_t app_error,
                    void* user_data, void*) {
    auto& self = self_of(user_data);
    if (!self.accepting()) return 0;
    bool set = (flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET) != 0;
    return self.app().on_stream_close(stream_id, app_error, set) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_stream_reset(ngtcp2_conn*, std::int64_t stream_id, std::uint64_t, std::uint64_t app_error, void* user_data,
                    void*) {
    auto& self = self_of(user_data);
    if (!self.accepting()) return 0;
    return self.app().on_stream_reset(stream_id, app_error) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_stream_stop_sending(ngtcp2_conn*, std::int64_t stream_id, std::uint64_t app_error, void* user_data, void*) {
    auto& self = self_of(user_data);
    if (!self.accepting()) return 0;
    return self.app().on_stream_stop_sending(stream_id, app_error) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
}

int cb_extend_max_streams_bidi(ngtcp2_conn*, std::uint64_t, void* user_data) {
    auto& self = self_of(user_data);
    if (self.accepting()) self.app().on_streams_available();
    return 0;
}

int cb_extend_max_stream_data(ngtcp2_conn*, std::int64_t stream_id, std::uint64_t, void* user_data, void*) {
    auto& self = self_of(user_data);
    if (self.accepting()) self.app().on_stream_unblocked(stream_id);
    return 0;
}

int cb_recv_datagram(ngtcp2_conn*, std::uint32_t, const std::uint8_t* data, std::size_t len, void* user_data) {
    auto& self = self_of(user_data);
    if (self.accepting()) self.app().on_datagram(data, len);
    return 0;
}

int cb_recv_stateless_reset(ngtcp2_conn*, const ngtcp2_pkt_stateless_reset*, void* user_data) {
    self_of(user_data).note_stateless_reset();
    return 0;
}

void cb_rand(std::uint8_t* dest, std::size_t len, const ngtcp2_rand_ctx*) {
    gnutls_rnd(GNUTLS_RND_NONCE, dest, len);
}

int cb_get_new_connection_id(ngtcp2_conn*, ngtcp2_cid* cid, std::uint8_t* token, std::size_t cidlen, void*) {
    if (gnutls_rnd(GNUTLS_RND_RANDOM, cid->data, cidlen) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
    cid->datalen = cidlen;
    // A client never receives stateless resets for its own CIDs' tokens;
    // random bytes are what the token must look like.
    if (gnutls_rnd(GNUTLS_RND_RANDOM, token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0) return NGTCP2_ERR_CALLBACK_FAILURE;
    return 0;
}

ngtcp2_conn* conn_of_ref(ngtcp2_crypto_conn_ref* ref) {
    return static_cast<QuicConnection*>(ref->user_data)->native();
}

ngtcp2_cc_algo algo_of(CongestionControl cc) {
    switch (cc) {
    case CongestionControl::cubic: return NGTCP2_CC_ALGO_CUBIC;
    case CongestionControl::bbr: return NGTCP2_CC_ALGO_BBR;
    case CongestionControl::bbr2: return NGTCP2_CC_ALGO_BBR2;
    case CongestionControl::reno: return NGTCP2_CC_ALGO_RENO;
    }
    return NGTCP2_CC_ALGO_CUBIC;
}

ngtcp2_addr addr_of(const udp::endpoint& ep) {
    return ngtcp2_addr{const_cast<sockaddr*>(ep.data()), static_cast<ngtcp2_socklen>(ep.size())};
}

std::string close_reason(const ngtcp2_connection_close_error& e) {
    std::string text = e.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION ? "application error 0x"
                                                                                     : "transport error 0x";
    char code[24];
    std::snprintf(code, sizeof code, "%llx", static_cast<unsigned long long>(e.error_code));
    text += code;
    if (e.reasonlen > 0) text += " (" + std::string(reinterpret_cast<const char*>(e.reason), e.reasonlen) + ")";
    return text;
}

ngtcp2_callbacks client_callbacks() {
    ngtcp2_callbacks callbacks{};
    callbacks.client_initial = ngtcp2_crypto_client_initial_cb;
    callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    callbacks.handshake_completed = cb_handshake_completed;
    callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
    callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
    callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
    callbacks.recv_stream_data = cb_recv_stream_data;
    callbacks.acked_stream_data_offset = cb_acked_stream_data_offset;
    callbacks.stream_close = cb_stream_close;
    callbacks.recv_retry = ngtcp2_crypto_recv_retry_cb;
    callbacks.recv_stateless_reset = cb_recv_stateless_reset;
    callbacks.extend_max_local_streams_bidi = cb_extend_max_streams_bidi;
    callbacks.rand = cb_rand;
    callbacks.get_new_connection_id = cb_get_new_connection_id;
    callbacks.update_key = ngtcp2_crypto_update_key_cb;
    callbacks.stream_reset = cb_stream_reset;
    callbacks.extend_max_stream_data = cb_extend_max_stream_data;
    callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    callbacks.recv_datagram = cb_recv_datagram;
    callbacks.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
    callbacks.stream_stop_sending = cb_stream_stop_sending;
    callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    return callbacks;
}

ngtcp2_settings settings_of(const QuicOptions& options, ngtcp2_tstamp initial_ts) {
    ngtcp2_settings settings;
    ngtcp2_settings_default(&settings);
    settings.initial_ts = initial_ts;
    settings.cc_algo = algo_of(options.cc);
    settings.initial_rtt = static_cast<ngtcp2_duration>(options.initial_rtt.count());
    settings.handshake_timeout = static_cast<ngtcp2_duration>(options.handshake_timeout.count());
    settings.max_window = options.max_data * 2;
    settings.max_stream_window = options.max_stream_data * 2;
    if (options.obfuscator != nullptr) {
        // Leave room for the obfuscation header inside a 1452-byte UDP payload.
        settings.max_tx_udp_payload_size = 1452 - options.obfuscator->overhead();
        settings.no_pmtud = 1;
    }
    return settings;
}

ngtcp2_transport_params transport_params_of(const QuicOptions& options) {
    ngtcp2_transport_params params;
    ngtcp2_transport_params_default(&params);
    params.initial_max_stream_data_bidi_local = options.max_stream_data;
    params.initial_max_stream_data_bidi_remote = options.max_stream_data;
    params.initial_max_stream_data_uni = options.max_stream_data;
    params.initial_max_data = options.max_data;
    params.initial_max_streams_bidi = 0;
    params.initial_max_streams_uni = options.max_streams_uni;
    params.max_idle_timeout = static_cast<ngtcp2_duration>(options.idle_timeout.count());
    params.active_connection_id_limit = 7;
    params.max_datagram_frame_size = options.max_datagram_frame_size;
    return params;
}

}  // namespace

const char* congestion_control_name(CongestionControl cc) noexcept {
    switch (cc) {
    case CongestionControl::cubic: return "cubic";
    case CongestionControl::bbr: return "bbr";
    case CongestionControl::bbr2: return "bbr2";
    case CongestionControl::reno: return "reno";
    }
    return "?";
}

std::optional<CongestionControl> parse_congestion_control(const std::string& name) {
    for (auto cc : {CongestionControl::cubic, CongestionControl::bbr, CongestionControl::bbr2, CongestionControl::reno})
        if (name == congestion_control_name(cc)) return cc;
    return std::nullopt;
}

QuicConnection::QuicConnection(asio::io_context& io, const QuicTlsContext& tls, QuicOptions options, QuicApp& app)
    : io_(io),
      tls_(tls),
      options_(std::move(options)),
      app_(app),
      socket_(io),
      timer_(io),
      sys_(options_.udp_syscalls != nullptr ? *options_.udp_syscalls : kernel_udp_syscalls()) {}

QuicConnection::~QuicConnection() {
    if (conn_ != nullptr) ngtcp2_conn_del(conn_);
    if (session_ != nullptr) gnutls_deinit(session_);
}

void QuicConnection::open_socket() {
    boost::system::error_code ec;
    const udp::endpoint& remote = options_.remote;
    socket_.open(remote.protocol(), ec);
    if (!ec && options_.bind_address) socket_.bind(udp::endpoint(*options_.bind_address, 0), ec);
    if (!ec) socket_.connect(remote, ec);
    if (!ec) socket_.non_blocking(true, ec);
    if (!ec) local_ = socket_.local_endpoint(ec);
    if (ec) throw QuicSetupError("UDP socket to " + remote.address().to_string() + ":" + std::to_string(remote.port()) +
                                 ": " + ec.message());
    udp_ = configure_udp_socket(socket_.native_handle(), remote.protocol() == udp::v6(), options_.udp_batching, sys_);
}

void QuicConnection::start() {
    open_socket();
    const ngtcp2_callbacks callbacks = client_callbacks();
    ngtcp2_cid scid{}, dcid{};
    scid.datalen = 17;
    dcid.datalen = 18;
    gnutls_rnd(GNUTLS_RND_RANDOM, scid.data, scid.datalen);
    gnutls_rnd(GNUTLS_RND_RANDOM, dcid.data, dcid.datalen);

    started_ts_ = quic_now();
    const ngtcp2_settings settings = settings_of(options_, started_ts_);
    const ngtcp2_transport_params params = transport_params_of(options_);
    ngtcp2_path path{addr_of(local_), addr_of(options_.remote), nullptr};
    if (int rv = ngtcp2_conn_client_new(&conn_, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks, &settings,
                                        &params, nullptr, this);
        rv != 0)
        throw QuicSetupError(std::string("ngtcp2_conn_client_new: ") + ngtcp2_strerror(rv));

    peer_.ref.get_conn = conn_of_ref;
    peer_.ref.user_data = this;
    session_ = tls_.make_session(&peer_);
    ngtcp2_conn_set_tls_native_handle(conn_, session_);
    if (options_.keep_alive.count() > 0)
        ngtcp2_conn_set_keep_alive_timeout(conn_, static_cast<ngtcp2_duration>(options_.keep_alive.count()));

    receive();
    write();
}

int QuicConnection::on_handshake_completed() {
    handshake_done_ = true;
    handshake_ts_ = quic_now();
    return app_.on_handshake_completed(*this);
}

std::chrono::nanoseconds QuicConnection::handshake_time() const noexcept {
    return std::chrono::nanoseconds(handshake_done_ ? static_cast<std::int64_t>(handshake_ts_ - started_ts_) : 0);
}

std::string QuicConnection::negotiated_alpn() const {
    gnutls_datum_t alpn{};
    if (session_ == nullptr || gnutls_alpn_get_selected_protocol(session_, &alpn) != 0) return {};
    return std::string(reinterpret_cast<const char*>(alpn.data), alpn.size);
}

std::string QuicConnection::cipher() const {
    if (session_ == nullptr) return {};
    const char* name = gnutls_cipher_get_name(gnutls_cipher_get(session_));
    return name != nullptr ? name : "";
}

std::optional<std::int64_t> QuicConnection::open_bidi_stream() {
    std::int64_t id = -1;
    if (closed_ || ngtcp2_conn_open_bidi_stream(conn_, &id, nullptr) != 0) return std::nullopt;
    return id;
}

std::uint64_t QuicConnection::bidi_streams_left() const noexcept {
    return closed_ || conn_ == nullptr ? 0 : ngtcp2_conn_get_streams_bidi_left(conn_);
}

std::uint64_t QuicConnection::uni_streams_left() const noexcept {
    return closed_ || conn_ == nullptr ? 0 : ngtcp2_conn_get_streams_uni_left(conn_);
}

void QuicConnection::allow_peer_uni_stream() {
    if (!closed_) ngtcp2_conn_extend_max_streams_uni(conn_, 1);
}

std::optional<std::int64_t> QuicConnection::open_uni_stream() {
    std::int64_t id = -1;
    if (closed_ || ngtcp2_conn_open_uni_stream(conn_, &id, nullptr) != 0) return std::nullopt;
    return id;
}

void QuicConnection::consume(std::int64_t stream_id, std::size_t len) {
    if (closed_ || len == 0) return;
    ngtcp2_conn_extend_max_stream_offset(conn_, stream_id, len);
    ngtcp2_conn_extend_max_offset(conn_, len);
}

void QuicConnection::shutdown_stream(std::int64_t stream_id, std::uint64_t app_error) {
    if (!closed_) ngtcp2_conn_shutdown_stream(conn_, stream_id, app_error);
    signal_write();
}

void QuicConnection::shutdown_stream_read(std::int64_t stream_id, std::uint64_t app_error) {
    if (!closed_) ngtcp2_conn_shutdown_stream_read(conn_, stream_id, app_error);
    signal_write();
}

void QuicConnection::shutdown_stream_write(std::int64_t stream_id, std::uint64_t app_error) {
    if (!closed_) ngtcp2_conn_shutdown_stream_write(conn_, stream_id, app_error);
    signal_write();
}

std::size_t QuicConnection::max_datagram_payload() const noexcept {
    if (closed_ || conn_ == nullptr) return 0;
    const ngtcp2_transport_params* remote = ngtcp2_conn_get_remote_transport_params(conn_);
    if (remote == nullptr || remote->max_datagram_frame_size == 0) return 0;
    // The frame type and a length varint take up to 1 + 8 bytes, but a
    // frame this small needs at most 1 + 2; stay inside one packet too.
    std::size_t frame_limit = remote->max_datagram_frame_size > 3 ? remote->max_datagram_frame_size - 3 : 0;
    std::size_t packet_limit = 1100;
    if (options_.obfuscator != nullptr) packet_limit -= options_.obfuscator->overhead();
    return frame_limit < packet_limit ? frame_limit : packet_limit;
}

bool QuicConnection::send_datagram(const std::uint8_t* data, std::size_t len) {
    if (len == 0 || len > max_datagram_payload()) return false;
    datagrams_.emplace_back(data, data + len);
    signal_write();
    return true;
}

void QuicConnection::signal_write() {
    // Inside on_readable the round's own write() follows: no post needed
    // (a post from a handler wakes the reactor with an epoll_ctl).
    if (closed_ || write_posted_ || (reading_ && !in_write_)) return;
    write_posted_ = true;
    asio::post(io_, [self = shared_from_this()] {
        self->write_posted_ = false;
        if (!self->closed_) self->write();
    });
}

// Asio re-arms the socket's epoll registration for each wait (an
// epoll_ctl); ready data then reports at once, so a batch that came back
// short need not be followed by a read that finds the socket empty. (A
// zero-byte MSG_PEEK receive instead costs two recvfrom per wake-up.)
void QuicConnection::receive() {
    socket_.async_wait(udp::socket::wait_read, [self = shared_from_this()](boost::system::error_code ec) {
        if (self->closed_ || ec == asio::error::operation_aborted) return;
        if (ec) {
            self->fail(NGTCP2_ERR_INTERNAL, "UDP receive: " + ec.message());
            return;
        }
        self->on_readable();
    });
}

// Reads in batches, answering each with one write (its ACKs and whatever
// the app has), until a batch comes back short; after a few rounds it
// yields to the other connections of this io_context and comes back.
void QuicConnection::on_readable() {
    constexpr std::size_t kPacketsBeforeWrite = 64;
    constexpr int kRounds = 8;
    for (int round = 0; round < kRounds; ++round) {
        std::size_t packets = 0;
        bool more = true;
        reading_ = true;
        while (more && packets < kPacketsBeforeWrite && !closed_) more = read_batch(packets);
        if (!closed_) app_.on_datagrams_processed();  // still reading_: what it signals goes in write() below
        reading_ = false;
        if (closed_) return;
        if (const std::uint64_t now = quic_now(); ngtcp2_conn_get_expiry(conn_) <= now) expire(now);
        if (closed_) return;
        write();
        if (closed_) return;
        if (!more) {
            receive();
            return;
        }
    }
    asio::post(io_, [self = shared_from_this()] {
        if (!self->closed_) self->on_readable();
    });
}

// One system call's worth of datagrams; false once a batch came back short
// (the socket is likely empty: receive() looks again) or the connection
// ended.
bool QuicConnection::read_batch(std::size_t& packets) {
    UdpBatchReceiver& receiver = UdpBatchReceiver::for_this_thread();
    const UdpIoResult got = receiver.receive(socket_.native_handle(), udp_, sys_);
    if (got.status == UdpIoStatus::would_block) return false;
    if (got.status == UdpIoStatus::refused) {
        refused();
        return false;
    }
    if (got.status == UdpIoStatus::failed) {
        fail(NGTCP2_ERR_INTERNAL, std::string("UDP receive: ") + std::strerror(got.error));
        return false;
    }
    const std::uint64_t now = quic_now();  // one clock read for the batch: it arrived together
    for (const UdpDatagram& d : receiver.datagrams()) {
        on_packet(d.data, d.len, d.ecn, now);
        if (closed_) return false;
    }
    packets += receiver.datagrams().size();
    return got.full;
}

void QuicConnection::on_packet(const std::uint8_t* data, std::size_t len, std::uint8_t ecn, std::uint64_t now) {
    ++counters_.packets_received;
    counters_.bytes_received += len;
    const std::uint8_t* packet = data;
    if (options_.obfuscator != nullptr) {
        len = options_.obfuscator->deobfuscate(data, len, rx_plain_.data());
        if (len == 0) {
            ++counters_.packets_dropped;
            return;
        }
        packet = rx_plain_.data();
    }
    if (too_short_for_quic(packet, len)) {  // ngtcp2 would end the connection over an empty one
        ++counters_.packets_dropped;
        return;
    }
    ngtcp2_path path{addr_of(local_), addr_of(options_.remote), nullptr};
    ngtcp2_pkt_info pi{};
    pi.ecn = ecn;
    int rv = ngtcp2_conn_read_pkt(conn_, &path, &pi, packet, len, now);
    if (rv == 0 || closed_) return;
    if (rv == NGTCP2_ERR_DRAINING) {
        ngtcp2_connection_close_error error{};
        ngtcp2_conn_get_connection_close_error(conn_, &error);
        CloseInfo info;
        info.cause = CloseCause::peer;
        info.by_peer = true;
        info.code = error.error_code;
        info.application = error.type == NGTCP2_CONNECTION_CLOSE_ERROR_CODE_TYPE_APPLICATION;
        info.reason = stateless_reset_ ? "stateless reset: the server no longer knows this connection (restarted?)"
                                       : "the peer closed the connection: " + close_reason(error);
        const bool tls_alert = !info.application && error.error_code >= 0x100 && error.error_code <= 0x1ff;
        if (tls_alert) {
            info.cause = handshake_done_ ? CloseCause::peer : CloseCause::tls;
            info.reason = "the peer ended TLS with alert " + std::to_string(error.error_code - 0x100) + " (" +
                          close_reason(error) + ")";
            if (tls_.options().sni.empty())
                info.reason += "; no SNI was sent (the target is an address): a server that picks its certificate "
                               "by name needs a host name, e.g. https://localhost:PORT";
        }
        info.stateless_reset = stateless_reset_;
        finish(std::move(info));
        return;
    }
    if (rv == NGTCP2_ERR_RECV_VERSION_NEGOTIATION) {  // nothing to close: the server took no connection
        CloseInfo info;
        info.cause = CloseCause::version_negotiation;
        info.by_peer = true;
        info.reason = "the server answered with Version Negotiation: it speaks none of the QUIC versions this client "
                      "offers";
        finish(std::move(info));
        return;
    }
    if (rv == NGTCP2_ERR_CRYPTO) {
        std::string why = peer_.verify_error.empty()
                              ? std::string("TLS alert ") + std::to_string(ngtcp2_conn_get_tls_alert(conn_))
                              : peer_.verify_error;
        ngtcp2_connection_close_error error{};
        ngtcp2_connection_close_error_set_transport_error_tls_alert(&error, ngtcp2_conn_get_tls_alert(conn_), nullptr, 0);
        CloseInfo info;
        info.cause = CloseCause::tls;
        info.reason = "TLS handshake failed: " + why;
        close_with(error, std::move(info));
        return;
    }
    fail(rv, std::string("ngtcp2_conn_read_pkt: ") + ngtcp2_strerror(rv));
}

// Where ngtcp2 writes the next packet: straight into the burst, or into tx_
// when it is obfuscated on its way there. nullptr: the burst is full.
std::uint8_t* QuicConnection::packet_slot(std::size_t max_size) {
    if (options_.obfuscator == nullptr) return sender_.slot(max_size);
    return sender_.slot(max_size + options_.obfuscator->overhead()) != nullptr ? tx_.data() : nullptr;
}

// The packet ngtcp2 just wrote at packet_slot(): into the burst, obfuscated
// on the way when the link asks for it.
void QuicConnection::queue_packet(const std::uint8_t* written, std::size_t len, std::uint8_t ecn) {
    if (options_.obfuscator != nullptr) {
        std::uint8_t* wire = sender_.slot(len + options_.obfuscator->overhead());
        len = options_.obfuscator->obfuscate(written, len, wire);
    }
    sender_.add(len, ecn, udp_);
}

// Sends the burst; false when the connection cannot go on writing now (the
// socket is full and a wait for it is armed, or the connection ended).
bool QuicConnection::flush_packets() {
    if (sender_.empty()) return true;
    const UdpIoResult sent = sender_.flush(socket_.native_handle(), options_.remote.protocol() == udp::v6(), udp_, sys_);
    counters_.packets_sent += sent.packets;
    counters_.bytes_sent += sent.bytes;
    switch (sent.status) {
    case UdpIoStatus::ok: return true;
    case UdpIoStatus::would_block:
        send_blocked_ = true;
        wait_writable();
        return false;
    case UdpIoStatus::refused: refused(); return false;
    case UdpIoStatus::failed: fail(NGTCP2_ERR_INTERNAL, std::string("UDP send: ") + std::strerror(sent.error)); return false;
    }
    return false;
}

void QuicConnection::wait_writable() {
    if (waiting_writable_) return;
    waiting_writable_ = true;
    socket_.async_wait(udp::socket::wait_write, [self = shared_from_this()](boost::system::error_code ec) {
        self->waiting_writable_ = false;
        if (self->closed_ || ec) return;
        self->send_blocked_ = false;
        if (self->flush_packets()) self->write();
    });
}

bool QuicConnection::write_datagrams(std::uint64_t ts, std::size_t max_size) {
    while (!datagrams_.empty() && !closed_) {
        std::uint8_t* out = packet_slot(max_size);
        if (out == nullptr) {
            if (!flush_packets()) return false;
            continue;
        }
        const auto& d = datagrams_.front();
        ngtcp2_vec vec{const_cast<std::uint8_t*>(d.data()), d.size()};
        int accepted = 0;
        ngtcp2_path_storage ps;
        ngtcp2_path_storage_zero(&ps);
        ngtcp2_pkt_info pi{};
        auto n = ngtcp2_conn_writev_datagram(conn_, &ps.path, &pi, out, max_size, &accepted, 0, 0, &vec, 1, ts);
        if (n < 0) {
            // Too large or not allowed by the peer: this one cannot go.
            if (n == NGTCP2_ERR_INVALID_ARGUMENT || n == NGTCP2_ERR_INVALID_STATE) {
                datagrams_.pop_front();
                continue;
            }
            fail(static_cast<int>(n), std::string("ngtcp2_conn_writev_datagram: ") + ngtcp2_strerror(static_cast<int>(n)));
            return false;
        }
        if (n == 0) return true;  // congestion limited; the rest waits
        if (accepted) datagrams_.pop_front();
        queue_packet(out, static_cast<std::size_t>(n), static_cast<std::uint8_t>(pi.ecn));
    }
    return !closed_;
}

// Up to one send quantum of packets (ngtcp2's pacing: the next burst waits
// for the expiry it sets), written into one burst and sent together.
void QuicConnection::write() {
    if (closed_ || in_write_ || send_blocked_) return;
    in_write_ = true;
    std::uint64_t ts = quic_now();
    std::size_t max_size = ngtcp2_conn_get_max_tx_udp_payload_size(conn_);
    std::size_t max_packets = ngtcp2_conn_get_send_quantum(conn_) / max_size;
    if (max_packets == 0) max_packets = 1;
    std::size_t packets = 0;
    bool go_on = write_datagrams(ts, max_size);
    bool paced = false;
    while (go_on && !closed_) {
        std::uint8_t* out = packet_slot(max_size);
        if (out == nullptr) {
            if (!flush_packets()) break;
            continue;
        }
        StreamChunk chunk;
        if (ngtcp2_conn_get_max_data_left(conn_) > 0) {
            if (int rv = app_.next_chunk(chunk); rv != 0) {
                in_write_ = false;
                fail(rv, "the application could not produce stream data");
                return;
            }
        }
        ngtcp2_vec single{const_cast<std::uint8_t*>(chunk.data), chunk.len};
        const ngtcp2_vec* vecs = chunk.vecs != nullptr ? static_cast<const ngtcp2_vec*>(chunk.vecs) : &single;
        std::size_t vec_count = chunk.vecs != nullptr ? chunk.vec_count : (chunk.len > 0 ? 1 : 0);
        std::uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
        if (chunk.fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
        ngtcp2_ssize accepted = -1;
        ngtcp2_path_storage ps;
        ngtcp2_path_storage_zero(&ps);
        ngtcp2_pkt_info pi{};
        auto n = ngtcp2_conn_writev_stream(conn_, &ps.path, &pi, out, max_size, &accepted, flags, chunk.stream_id, vecs,
                                           vec_count, ts);
        if (n < 0) {
            if (n == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
                app_.on_blocked(chunk.stream_id);
                continue;
            }
            if (n == NGTCP2_ERR_STREAM_SHUT_WR || n == NGTCP2_ERR_STREAM_NOT_FOUND) {
                app_.on_shut_write(chunk.stream_id);
                continue;
            }
            if (n == NGTCP2_ERR_WRITE_MORE) {
                if (int rv = app_.on_written(chunk.stream_id, static_cast<std::size_t>(accepted)); rv != 0) {
                    in_write_ = false;
                    fail(rv, "the application refused its written stream data");
                    return;
                }
                continue;
            }
            in_write_ = false;
            fail(static_cast<int>(n), std::string("ngtcp2_conn_writev_stream: ") + ngtcp2_strerror(static_cast<int>(n)));
            return;
        }
        if (accepted >= 0 && chunk.stream_id >= 0) {
            if (int rv = app_.on_written(chunk.stream_id, static_cast<std::size_t>(accepted)); rv != 0) {
                in_write_ = false;
                fail(rv, "the application refused its written stream data");
                return;
            }
        }
        if (n == 0) break;
        queue_packet(out, static_cast<std::size_t>(n), static_cast<std::uint8_t>(pi.ecn));
        if (++packets >= max_packets) {
            paced = true;
            break;
        }
    }
    const bool sent = !closed_ && !send_blocked_ && flush_packets();
    if (!closed_) ngtcp2_conn_update_pkt_tx_time(conn_, ts);
    in_write_ = false;
    if (closed_) return;
    if (sent && paced) signal_write();  // let the receive side run between bursts
    arm_timer();
}

// The reactor's timer for ngtcp2's next deadline. Each move of it is a
// timerfd_settime, which in a VM costs a VM exit (~8 µs here): per batch of
// a download that was 8 % of the client's CPU, and loopback's ACK delay
// (smoothed RTT / 8, tens of µs) moved it per response. So the timer runs on
// a 1 ms grid: a deadline is rounded up to the next millisecond, the timer
// moves only when the rounded deadline moves earlier, and a deadline that
// moved later keeps the earlier wait (firing early is harmless: it re-arms).
// ngtcp2's timers take a millisecond: an ACK is due within the 25 ms
// max_ack_delay we announce, loss detection waits a PTO, and pacing sends
// a packet up to 1 ms early (NGTCP2_PKT_PACING_OVERHEAD) in send quanta of
// 1 ms. A busy connection handles what came due between reads (on_readable).
void QuicConnection::arm_timer() {
    const ngtcp2_tstamp expiry = ngtcp2_conn_get_expiry(conn_);
    if (!expiring_inline_ && expiry <= quic_now()) {
        // Already due (a pacing deadline that passed while the burst went
        // out): handled now, not through the reactor's timer.
        expiring_inline_ = true;
        expire(quic_now());
        if (!closed_) write();
        expiring_inline_ = false;
        return;
    }
    constexpr std::uint64_t kGrid = 1'000'000;
    const std::uint64_t deadline = expiry >= UINT64_MAX - kGrid ? UINT64_MAX : (expiry / kGrid + 1) * kGrid;
    if (timer_pending_ && deadline >= armed_expiry_) return;
    const std::uint64_t generation = ++timer_generation_;
    armed_expiry_ = deadline;
    if (deadline == UINT64_MAX) {
        timer_pending_ = false;
        timer_.cancel();
        return;
    }
    timer_pending_ = true;
    timer_.expires_at(std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(deadline))));
    // expires_at cancels the previous wait; its handler sees an old generation.
    timer_.async_wait([self = shared_from_this(), generation](boost::system::error_code ec) {
        if (generation != self->timer_generation_) return;
        self->timer_pending_ = false;
        if (ec || self->closed_) return;
        self->on_timer();
    });
}

void QuicConnection::on_timer() {
    expire(quic_now());
    if (!closed_) write();
}

// ngtcp2's timers (loss detection, ACK delay, pacing, idle) at `now`.
void QuicConnection::expire(std::uint64_t now) {
    int rv = ngtcp2_conn_handle_expiry(conn_, now);
    if (rv == NGTCP2_ERR_IDLE_CLOSE) {
        CloseInfo info;
        info.cause = CloseCause::idle_timeout;
        info.by_peer = true;
        info.idle_timeout = true;
        info.reason = "idle timeout: nothing from the peer for " +
                      std::to_string(options_.idle_timeout.count() / 1'000'000) + " ms";
        finish(std::move(info));
        return;
    }
    if (rv == NGTCP2_ERR_HANDSHAKE_TIMEOUT) {
        CloseInfo info;
        info.cause = CloseCause::handshake_timeout;
        info.reason = "no QUIC handshake within " + std::to_string(options_.handshake_timeout.count() / 1'000'000) +
                      " ms (is it a QUIC server? is UDP " + std::to_string(options_.remote.port()) + " open?)";
        finish(std::move(info));
        return;
    }
    if (rv != 0) fail(rv, std::string("ngtcp2_conn_handle_expiry: ") + ngtcp2_strerror(rv));
}

// ICMP port unreachable arrives as ECONNREFUSED on a connected UDP socket.
void QuicConnection::refused() {
    CloseInfo info;
    info.cause = CloseCause::refused;
    info.reason = "nobody listens on UDP " + options_.remote.address().to_string() + ":" +
                  std::to_string(options_.remote.port()) + " (ICMP port unreachable)";
    finish(std::move(info));
}

void QuicConnection::fail(int liberr, const std::string& what) {
    if (closed_) return;
    ngtcp2_connection_close_error error{};
    ngtcp2_connection_close_error_set_transport_error_liberr(&error, liberr, nullptr, 0);
    CloseInfo info;
    info.reason = what;
    close_with(error, std::move(info));
}

void QuicConnection::close(std::uint64_t app_error, const std::string& reason) {
    if (closed_) return;
    ngtcp2_connection_close_error error{};
    ngtcp2_connection_close_error_set_application_error(&error, app_error, nullptr, 0);
    CloseInfo info;
    info.application = true;
    info.code = app_error;
    info.reason = reason;
    close_with(error, std::move(info));
}

void QuicConnection::close_with(const ngtcp2_connection_close_error& error, CloseInfo info) {
    if (closed_) return;
    if (conn_ != nullptr && !ngtcp2_conn_is_in_closing_period(conn_) && !ngtcp2_conn_is_in_draining_period(conn_)) {
        // Best effort, after whatever the burst holds; behind a blocked
        // burst it would not go out anyway.
        const std::size_t max_size = ngtcp2_conn_get_max_tx_udp_payload_size(conn_);
        const bool v6 = options_.remote.protocol() == udp::v6();
        std::uint8_t* out = send_blocked_ ? nullptr : packet_slot(max_size);
        if (out == nullptr && !send_blocked_) {
            sender_.flush(socket_.native_handle(), v6, udp_, sys_);
            if (sender_.empty()) out = packet_slot(max_size);
        }
        ngtcp2_path_storage ps;
        ngtcp2_path_storage_zero(&ps);
        ngtcp2_pkt_info pi{};
        auto n = out == nullptr ? 0
                                : ngtcp2_conn_write_connection_close(conn_, &ps.path, &pi, out, max_size, &error, quic_now());
        if (n > 0) queue_packet(out, static_cast<std::size_t>(n), static_cast<std::uint8_t>(pi.ecn));
        if (!sender_.empty() && !send_blocked_) sender_.flush(socket_.native_handle(), v6, udp_, sys_);
    }
    if (info.code == 0 && !info.application) info.code = error.error_code;
    finish(std::move(info));
}

void QuicConnection::finish(CloseInfo info) {
    if (closed_) return;
    closed_ = true;
    info.handshake_done = handshake_done_;
    boost::system::error_code ec;
    timer_.cancel();
    socket_.close(ec);
    app_.on_closed(info);
}

void QuicConnection::abandon() noexcept {
    closed_ = true;
    boost::system::error_code ec;
    timer_.cancel();
    socket_.close(ec);
}

}  // namespace stand::quic
