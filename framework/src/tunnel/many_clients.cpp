#include "tunnel/many_clients.hpp"

#include "hysteria/hysteria_client.hpp"
#include "load/load_clock.hpp"
#include "load/load_result.hpp"
#include "load/load_stats.hpp"
#include "quic/quic_error.hpp"
#include "tunnel/client_setup.hpp"
#include "tunnel/small_request.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/value_from.hpp>

#include <map>
#include <memory>


namespace stand::tunnel {

namespace asio = boost::asio;

namespace {

class Crowd;

// One client: connect once at its ramp time, then a /small every period
// (or its one counted fetch).
class Member {
public:
    Member(Crowd& crowd, asio::io_context& io, const ClientSetup& setup, const std::string& auth,
           ClientTransfer* transfer);
    void start_at(std::chrono::nanoseconds offset);
    void stop();

private:
    void on_ready();
    void on_closed(const quic::CloseInfo& info, bool authenticated);
    void arm_request();
    void send_request();
    void fetch_when_all_connected();
    void send_fetch();
    void finish_fetch(SmallRequest& r, bool ok, const std::string& why);

    Crowd& crowd_;
    ClientTransfer* transfer_;  // fetch mode only
    asio::steady_timer timer_;
    std::unique_ptr<hysteria::HysteriaClient> client_;
    std::unique_ptr<SmallRequest> request_;
    std::int64_t connect_started_ = 0;
    bool ready_once_ = false;
    bool stopped_ = false;
};

class Crowd {
public:
    Crowd(const ManyClientsSpec& spec, ManyClientsResult& result) : spec_(spec), result_(result), end_(io_) {}

    // Client i uses setups[index[i]] (links of one server share a setup).
    void run(const std::vector<ClientSetup>& setups, const std::vector<std::size_t>& index,
             const std::atomic<bool>* stop) {
        const std::size_t n = index.size();
        start_ = load::now_ns();
        if (spec_.fetch_bytes > 0) result_.transfers.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            ClientTransfer* transfer = spec_.fetch_bytes > 0 ? &result_.transfers[i] : nullptr;
            members_.push_back(std::make_unique<Member>(*this, io_, setups[index[i]], spec_.links[i].auth, transfer));
            members_.back()->start_at(std::chrono::nanoseconds(
                static_cast<std::int64_t>(static_cast<double>(spec_.ramp.count()) * static_cast<double>(i) /
                                          static_cast<double>(n))));
        }
        arm_end(stop);
        io_.run();
        result_.elapsed_s = static_cast<double>(load::now_ns() - start_) / 1e9;
    }

    bool open() const noexcept { return open_; }
    const ManyClientsSpec& spec() const noexcept { return spec_; }
    ManyClientsResult& result() noexcept { return result_; }
    void note(const std::string& error) {
        if (result_.errors.size() < 5) result_.errors.push_back(error);
    }
    // A fetch-mode client is done (fetched, failed or never connected).
    void member_done() { ++done_; }
    std::int64_t ramp_end_ns() const noexcept { return start_ + spec_.ramp.count(); }

private:
    void arm_end(const std::atomic<bool>* stop) {
        // Checked every 100 ms so an interrupt ends the run soon.
        end_.expires_after(std::chrono::milliseconds(100));
        end_.async_wait([this, stop](boost::system::error_code ec) {
            if (ec) return;
            const bool interrupted = stop != nullptr && stop->load();
            const bool all_fetched = spec_.fetch_bytes > 0 && done_ == members_.size();
            if (interrupted || all_fetched || load::now_ns() - start_ >= spec_.duration.count()) {
                open_ = false;
                for (auto& m : members_) m->stop();
                return;
            }
            arm_end(stop);
        });
    }

    const ManyClientsSpec& spec_;
    ManyClientsResult& result_;
    asio::io_context io_;
    asio::steady_timer end_;
    std::vector<std::unique_ptr<Member>> members_;
    std::int64_t start_ = 0;
    std::size_t done_ = 0;
    bool open_ = true;
};

Member::Member(Crowd& crowd, asio::io_context& io, const ClientSetup& setup, const std::string& auth,
               ClientTransfer* transfer)
    : crowd_(crowd), transfer_(transfer), timer_(io) {
    hysteria::HysteriaEvents events;
    events.on_ready = [this] { on_ready(); };
    events.on_closed = [this](const quic::CloseInfo& info, bool authenticated) { on_closed(info, authenticated); };
    client_ = std::make_unique<hysteria::HysteriaClient>(io, *setup.tls, setup.options, auth, std::move(events));
}

void Member::start_at(std::chrono::nanoseconds offset) {
    timer_.expires_after(offset);
    timer_.async_wait([this](boost::system::error_code ec) {
        if (ec || stopped_ || !crowd_.open()) return;
        connect_started_ = load::now_ns();
        try {
            client_->connect();
        } catch (const quic::QuicSetupError& e) {
            ++crowd_.result().handshake_failures;
            crowd_.note(e.what());
            if (transfer_ != nullptr) crowd_.member_done();
        }
    });
}

void Member::on_ready() {
    if (!ready_once_) {
        ready_once_ = true;
        ++crowd_.result().connected;
        crowd_.result().handshake_us.record(load::ns_to_us(load::now_ns() - connect_started_));
    }
    if (!crowd_.open()) {
        stop();
        return;
    }
    if (transfer_ != nullptr) {
        if (!request_) fetch_when_all_connected();
        return;
    }
    send_request();
}

// Every client connects over the ramp; the downloads start together at its
// end, so `clients` of them run at once.
void Member::fetch_when_all_connected() {
    const auto wait = std::chrono::nanoseconds(std::max<std::int64_t>(0, crowd_.ramp_end_ns() - load::now_ns()));
    timer_.expires_after(wait);
    timer_.async_wait([this](boost::system::error_code ec) {
        if (ec || stopped_ || request_) return;
        if (!crowd_.open()) {
            stop();
            return;
        }
        send_fetch();
    });
}

void Member::on_closed(const quic::CloseInfo& info, bool authenticated) {
    if (stopped_) return;
    if (!authenticated && !ready_once_) {
        ++crowd_.result().handshake_failures;
        crowd_.note(info.reason);
    } else if (authenticated) {
        ++crowd_.result().disconnects;
        crowd_.note("lost after authenticating: " + info.reason);
    }
    timer_.cancel();
    if (transfer_ != nullptr) {
        stopped_ = true;  // the client is closed already: finish_fetch must not close it again
        if (request_ && !request_->finished()) request_->fail("connection lost: " + info.reason);
        if (!request_) crowd_.member_done();
    }
}

void Member::arm_request() {
    timer_.expires_after(crowd_.spec().every);
    timer_.async_wait([this](boost::system::error_code ec) {
        if (ec || stopped_) return;
        if (!crowd_.open()) {
            stop();
            return;
        }
        send_request();
    });
}

void Member::send_request() {
    if (request_ && !request_->finished()) request_->fail("timeout");
    request_ = std::make_unique<SmallRequest>(load::now_ns(), [this](SmallRequest& r, bool ok, const std::string& why) {
        auto& result = crowd_.result();
        if (ok) {
            ++result.requests_ok;
            result.request_us.record(load::ns_to_us(load::now_ns() - r.started()));
        } else {
            ++result.requests_failed;
            crowd_.note(why);
        }
        if (r.stream_id >= 0) client_->close_stream(r.stream_id);
    });
    const std::int64_t id = client_->ready() ? client_->open_tcp(crowd_.spec().sink, *request_) : -1;
    if (id < 0) {
        request_->fail("no tunnel or no stream credit");
    } else {
        request_->stream_id = id;
        client_->send(id, kSmallRequest, false);
    }
    if (client_->ready()) arm_request();
}

void Member::send_fetch() {
    const std::string text = counted_zero_request(crowd_.spec().fetch_bytes);
    request_ = std::make_unique<SmallRequest>(load::now_ns(), [this](SmallRequest& r, bool ok, const std::string& why) {
        finish_fetch(r, ok, why);
    });
    const std::int64_t id = client_->open_tcp(crowd_.spec().sink, *request_);
    if (id < 0) {
        request_->fail("no stream credit");
        return;
    }
    request_->stream_id = id;
    transfer_->up = text.size();
    client_->send(id, text, false);
}

void Member::finish_fetch(SmallRequest& r, bool ok, const std::string& why) {
    transfer_->down = r.bytes_in;
    transfer_->ok = ok;
    if (ok) {
        ++crowd_.result().requests_ok;
        crowd_.result().request_us.record(load::ns_to_us(load::now_ns() - r.started()));
    } else {
        ++crowd_.result().requests_failed;
        crowd_.note(why);
    }
    crowd_.member_done();
    if (stopped_) return;  // the window closed or the connection was lost: no stream or client to close
    if (r.stream_id >= 0) client_->close_stream(r.stream_id);
    stopped_ = true;
    client_->close();
}

void Member::stop() {
    if (stopped_) return;
    stopped_ = true;
    timer_.cancel();
    if (request_ && !request_->finished()) request_->fail("the window closed");
    client_->close();
}

}  // namespace

boost::json::object ManyClientsResult::to_json() const {
    boost::json::object o;
    o["schema"] = "stand.many_clients/1";
    o["clients"] = clients;
    o["connected"] = connected;
    o["handshake_failures"] = handshake_failures;
    o["requests_ok"] = requests_ok;
    o["requests_failed"] = requests_failed;
    o["disconnects"] = disconnects;
    o["handshake_us"] = load::summarize_us(handshake_us);
    o["request_us"] = load::summarize_us(request_us);
    o["elapsed_s"] = elapsed_s;
    o["cpu_s"] = cpu_s;
    o["errors"] = boost::json::value_from(errors);
    return o;
}

ManyClientsResult run_many_clients(const ManyClientsSpec& spec, const std::atomic<bool>* stop) {
    if (spec.links.empty()) throw TunnelSpecError("many_clients needs at least one client link");
    check_sink(spec.sink, spec.allow_remote);
    if (spec.every <= std::chrono::nanoseconds(0)) throw TunnelSpecError("the request interval must be positive");
    // One setup per distinct server/TLS/obfs combination: links of one panel share it.
    std::vector<ClientSetup> setups;
    std::map<std::string, std::size_t> by_key;
    std::vector<std::size_t> index;
    for (const auto& l : spec.links) {
        const std::string key = l.host + ":" + std::to_string(l.port) + "|" + l.sni + "|" + l.pin_sha256 + "|" +
                                (l.insecure ? "1" : "0") + "|" + l.obfs + "|" + l.obfs_password;
        auto it = by_key.find(key);
        if (it == by_key.end()) {
            it = by_key.emplace(key, setups.size()).first;
            setups.push_back(make_client_setup(l, spec.ca_file, spec.congestion_control, spec.handshake_timeout,
                                               spec.allow_remote));
        }
        index.push_back(it->second);
    }
    ManyClientsResult result;
    result.clients = spec.links.size();
    const double cpu_before = load::process_cpu_seconds();
    {
        Crowd crowd(spec, result);
        crowd.run(setups, index, stop);
    }
    result.cpu_s = load::process_cpu_seconds() - cpu_before;
    return result;
}

}  // namespace stand::tunnel
