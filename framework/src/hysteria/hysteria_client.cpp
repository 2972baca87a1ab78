#include "hysteria/hysteria_client.hpp"

#include "hysteria/hysteria_wire.hpp"

#include <boost/asio/post.hpp>

#include <nghttp3/nghttp3.h>


namespace stand::hysteria {

namespace asio = boost::asio;

const char* stream_end_name(StreamEnd end) noexcept {
    switch (end) {
    case StreamEnd::fin: return "fin";
    case StreamEnd::reset: return "reset";
    case StreamEnd::connection_lost: return "connection_lost";
    case StreamEnd::closed_locally: return "closed_locally";
    }
    return "?";
}

struct HysteriaClient::RawStream {
    ProxyStreamHandler* handler = nullptr;  // null once closed locally
    std::string out;          // bytes queued; kept until acknowledged
    std::size_t sent = 0;     // of `out`, handed to ngtcp2
    std::size_t acked = 0;    // of `out`, acknowledged
    bool fin_wanted = false;
    bool fin_sent = false;
    bool blocked = false;
    bool queued = false;
    TcpResponseReader response;
    bool has_pending() const noexcept { return sent < out.size() || (fin_wanted && !fin_sent); }
};

HysteriaClient::HysteriaClient(asio::io_context& io, const quic::QuicTlsContext& tls, quic::QuicOptions options,
                               std::string auth, HysteriaEvents events)
    : io_(io), tls_(tls), options_(std::move(options)), auth_(std::move(auth)), events_(std::move(events)) {
    // Hysteria servers use DATAGRAM frames for UDP relay; accept them.
    if (options_.max_datagram_frame_size == 0) options_.max_datagram_frame_size = 65535;
}

HysteriaClient::~HysteriaClient() { abandon(); }

void HysteriaClient::connect() {
    abandon();
    if (retired_) {
        udp_done_.add(*retired_);
        retired_.reset();
    }
    streams_.clear();
    write_queue_.clear();
    authenticated_ = false;
    auth_stream_ = -1;
    auth_status_ = 0;
    connect_started_ = std::chrono::steady_clock::now();
    conn_ = std::make_shared<quic::QuicConnection>(io_, tls_, options_, *this);
    h3_ = std::make_unique<quic::Http3Layer>(*conn_, *this);
    conn_->start();
}

std::chrono::nanoseconds HysteriaClient::handshake_time() const noexcept {
    return conn_ ? conn_->handshake_time() : std::chrono::nanoseconds(0);
}

int HysteriaClient::on_handshake_completed(quic::QuicConnection&) {
    if (int rv = h3_->start(); rv != 0) return rv;
    std::vector<quic::Http3Field> fields{
        {":method", "POST"},
        {":scheme", "https"},
        {":authority", "hysteria"},  // the server checks Host == "hysteria"
        {":path", "/auth"},
        {"hysteria-auth", auth_},
        // 0: unknown, the server uses its own congestion control toward us;
        // a rate: a server that honours it sends with Brutal at that rate.
        {"hysteria-cc-rx", std::to_string(rx_bytes_per_second_)},
        {"hysteria-padding", random_padding(256, 2048)},
    };
    auth_stream_ = h3_->submit(fields, nullptr);
    return auth_stream_ < 0 ? NGHTTP3_ERR_STREAM_IN_USE : 0;
}

void HysteriaClient::on_header(std::int64_t id, std::string_view name, std::string_view value) {
    if (id != auth_stream_) return;
    if (name == ":status") auth_status_ = quic::parse_status_field(value);
    else if (name == "hysteria-udp") server_udp_ = value;
    else if (name == "hysteria-cc-rx") server_cc_rx_ = value;
}

void HysteriaClient::on_headers_done(std::int64_t id) {
    if (id != auth_stream_ || authenticated_) return;
    auto conn = conn_;
    if (auth_status_ != kStatusAuthOk) {
        const std::string reason = "authentication refused: the server answered status " +
                                   std::to_string(auth_status_) + " (expected 233)";
        asio::post(io_, [conn, reason] { conn->close(0x101 /* H3_GENERAL_PROTOCOL_ERROR */, reason); });
        return;
    }
    authenticated_ = true;
    auth_time_ = std::chrono::steady_clock::now() - connect_started_;
    asio::post(io_, [this, conn] {
        if (conn == conn_ && !conn->closed() && events_.on_ready) events_.on_ready();
    });
}

std::int64_t HysteriaClient::open_tcp(const std::string& address, ProxyStreamHandler& handler) {
    if (!ready()) return -1;
    auto id = conn_->open_bidi_stream();
    if (!id) return -1;
    auto stream = std::make_unique<RawStream>();
    stream->handler = &handler;
    stream->out = encode_tcp_request(address);
    streams_.emplace(*id, std::move(stream));
    queue_write(*id);
    return *id;
}

void HysteriaClient::send(std::int64_t id, const std::string& data, bool fin) {
    auto it = streams_.find(id);
    if (it == streams_.end() || it->second->fin_wanted) return;
    it->second->out += data;
    it->second->fin_wanted = fin;
    queue_write(id);
}

void HysteriaClient::close_stream(std::int64_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end() || !conn_) return;
    it->second->handler = nullptr;
    conn_->shutdown_stream_read(id, 0);
    if (!it->second->fin_wanted) {
        it->second->fin_wanted = true;
        queue_write(id);
    }
}

void HysteriaClient::queue_write(std::int64_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return;
    RawStream& s = *it->second;
    if (!s.queued && !s.blocked && s.has_pending()) {
        s.queued = true;
        write_queue_.push_back(id);
    }
    if (conn_) conn_->signal_write();
}

void HysteriaClient::close() {
    if (conn_ && !conn_->closed()) conn_->close(NGHTTP3_H3_NO_ERROR, "closed by the client");
}

void HysteriaClient::abandon() noexcept {
    if (conn_) conn_->abandon();
    h3_.reset();
    if (conn_) retired_ = std::move(conn_);  // kept for udp_io() until the next connect()
}

quic::UdpIoSummary HysteriaClient::udp_io() const {
    quic::UdpIoSummary summary = udp_done_;
    if (retired_) summary.add(*retired_);
    if (conn_) summary.add(*conn_);
    return summary;
}

int HysteriaClient::on_stream_data(std::int64_t id, const std::uint8_t* data, std::size_t len, bool fin) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return h3_->on_stream_data(id, data, len, fin);
    conn_->consume(id, len);
    RawStream& s = *it->second;
    if (s.handler == nullptr) return 0;
    std::size_t used = 0;
    if (s.response.state() == TcpResponseReader::State::need_more) {
        auto state = s.response.feed(data, len, used);
        if (state == TcpResponseReader::State::malformed) {
            end_stream(id, StreamEnd::reset, "the server's TCPResponse is malformed");
            conn_->shutdown_stream(id, 0x101);
            return 0;
        }
        if (state == TcpResponseReader::State::need_more) {
            if (fin) end_stream(id, StreamEnd::reset, "the stream ended inside the TCPResponse");
            return 0;
        }
        s.handler->on_open(state == TcpResponseReader::State::ok, s.response.message());
        if (state == TcpResponseReader::State::refused) {
            end_stream(id, StreamEnd::reset, "the server refused: " + s.response.message());
            return 0;
        }
    }
    if (s.handler != nullptr && used < len) s.handler->on_data(data + used, len - used);
    if (fin) end_stream(id, StreamEnd::fin, "the target closed the connection");
    return 0;
}

void HysteriaClient::end_stream(std::int64_t id, StreamEnd how, const std::string& why) {
    auto it = streams_.find(id);
    if (it == streams_.end() || it->second->handler == nullptr) return;
    ProxyStreamHandler* handler = it->second->handler;
    it->second->handler = nullptr;
    handler->on_end(how, why);
}

int HysteriaClient::on_acked(std::int64_t id, std::uint64_t len) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return h3_->on_acked(id, len);
    RawStream& s = *it->second;
    s.acked += len;
    if (s.acked == s.out.size() && s.sent == s.out.size()) {
        // Everything handed out is acknowledged: the buffer may start over.
        s.out.clear();
        s.sent = s.acked = 0;
    }
    return 0;
}

int HysteriaClient::on_stream_close(std::int64_t id, std::uint64_t code, bool set) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return h3_->on_stream_close(id, code, set);
    end_stream(id, StreamEnd::reset, "the stream was closed" + (set ? " with code " + std::to_string(code) : std::string()));
    streams_.erase(it);
    return 0;
}

int HysteriaClient::on_stream_reset(std::int64_t id, std::uint64_t code) {
    if (!streams_.count(id)) return h3_->on_stream_reset(id);
    end_stream(id, StreamEnd::reset, "the server reset the stream (code " + std::to_string(code) + ")");
    return 0;
}

int HysteriaClient::on_stream_stop_sending(std::int64_t id, std::uint64_t code) {
    if (!streams_.count(id)) return h3_->on_stream_reset(id);
    (void)code;  // the server stops reading; what we still receive stays valid
    return 0;
}

void HysteriaClient::on_stream_unblocked(std::int64_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end()) {
        h3_->on_stream_unblocked(id);
        return;
    }
    it->second->blocked = false;
    queue_write(id);
}

void HysteriaClient::on_streams_available() {
    if (authenticated_ && events_.on_streams_available) {
        auto conn = conn_;
        asio::post(io_, [this, conn] {
            if (conn == conn_ && !conn->closed() && events_.on_streams_available) events_.on_streams_available();
        });
    }
}

int HysteriaClient::next_chunk(quic::StreamChunk& chunk) {
    if (int rv = h3_->next_chunk(chunk); rv != 0 || chunk.stream_id >= 0) return rv;
    chunk = quic::StreamChunk{};
    while (!write_queue_.empty()) {
        const std::int64_t id = write_queue_.front();
        auto it = streams_.find(id);
        if (it == streams_.end() || it->second->blocked || !it->second->has_pending()) {
            if (it != streams_.end()) it->second->queued = false;
            write_queue_.pop_front();
            continue;
        }
        RawStream& s = *it->second;
        chunk.stream_id = id;
        chunk.data = reinterpret_cast<const std::uint8_t*>(s.out.data()) + s.sent;
        chunk.len = s.out.size() - s.sent;
        chunk.fin = s.fin_wanted;
        return 0;
    }
    return 0;
}

int HysteriaClient::on_written(std::int64_t id, std::size_t len) {
    auto it = streams_.find(id);
    if (it == streams_.end()) return h3_->on_written(id, len);
    RawStream& s = *it->second;
    s.sent += len;
    if (s.sent == s.out.size() && s.fin_wanted) s.fin_sent = true;
    if (!s.has_pending() && !write_queue_.empty() && write_queue_.front() == id) {
        write_queue_.pop_front();
        s.queued = false;
    }
    return 0;
}

void HysteriaClient::on_blocked(std::int64_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end()) {
        h3_->on_blocked(id);
        return;
    }
    it->second->blocked = true;
}

void HysteriaClient::on_shut_write(std::int64_t id) {
    auto it = streams_.find(id);
    if (it == streams_.end()) {
        h3_->on_shut_write(id);
        return;
    }
    it->second->out.clear();
    it->second->sent = it->second->acked = 0;
    it->second->fin_sent = true;
    it->second->fin_wanted = true;
}

void HysteriaClient::on_closed(const quic::CloseInfo& info) {
    const bool was_ready = authenticated_;
    std::vector<std::int64_t> ids;
    ids.reserve(streams_.size());
    for (const auto& [id, s] : streams_) ids.push_back(id);
    for (auto id : ids) end_stream(id, StreamEnd::connection_lost, info.reason);
    streams_.clear();
    write_queue_.clear();
    authenticated_ = false;
    // From a fresh stack frame: the handler may reconnect, which drops the
    // connection that is calling us.
    if (events_.on_closed) asio::post(io_, [this, info, was_ready] { events_.on_closed(info, was_ready); });
}

}  // namespace stand::hysteria
