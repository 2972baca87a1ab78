#include "load/ws_echo_load.hpp"
#include "load/thread_affinity.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <time.h>

#include <functional>
#include <memory>
#include <stdexcept>

namespace stand::load {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kKeptErrors = 5;

double thread_cpu_s() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

struct Run {
    const WsEchoSpec& spec;
    WsEchoResult& result;
    Clock::time_point end;
    const std::atomic<bool>* stop;
    std::string payload;

    bool over() const { return Clock::now() >= end || (stop != nullptr && stop->load()); }
    void note(const std::string& what, const beast::error_code& ec) {
        if (result.errors.size() < kKeptErrors) result.errors.push_back(what + ": " + ec.message());
    }
};

class Client : public std::enable_shared_from_this<Client> {
public:
    Client(asio::io_context& io, Run& run) : run_(run), ws_(io) {}

    void start(const asio::ip::tcp::endpoint& target) {
        beast::get_lowest_layer(ws_).expires_after(run_.spec.timeout);
        beast::get_lowest_layer(ws_).async_connect(target, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->fail_connect("connect", ec);
            self->ws_.async_handshake(self->run_.spec.host + ":" + std::to_string(self->run_.spec.port),
                                      self->run_.spec.path, [self](beast::error_code ec2) {
                                          if (ec2) return self->fail_connect("upgrade", ec2);
                                          ++self->run_.result.connected;
                                          self->send();
                                      });
        });
    }

private:
    void fail_connect(const char* what, const beast::error_code& ec) {
        ++run_.result.failed;
        run_.note(what, ec);
    }

    void send() {
        if (run_.over()) return close();
        sent_at_ = Clock::now();
        beast::get_lowest_layer(ws_).expires_after(run_.spec.timeout);
        ws_.async_write(asio::buffer(run_.payload), [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return self->drop("write", ec);
            self->ws_.async_read(self->buffer_, [self](beast::error_code ec2, std::size_t) {
                if (ec2) return self->drop("read", ec2);
                const auto rtt = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - self->sent_at_);
                self->run_.result.rtt_us.record(static_cast<std::uint64_t>(rtt.count()));
                ++self->run_.result.echoes;
                if (beast::buffers_to_string(self->buffer_.data()) != self->run_.payload) ++self->run_.result.mismatched;
                self->buffer_.consume(self->buffer_.size());
                self->send();
            });
        });
    }

    void drop(const char* what, const beast::error_code& ec) {
        if (run_.over()) return;  // the end of the run, not a drop
        ++run_.result.dropped;
        run_.note(what, ec);
    }

    void close() {
        beast::get_lowest_layer(ws_).expires_after(run_.spec.timeout);
        ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {});
    }

    Run& run_;
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    Clock::time_point sent_at_;
};

}  // namespace

boost::json::object WsEchoResult::to_json() const {
    boost::json::array errs;
    for (const auto& e : errors) errs.emplace_back(e);
    return {{"connected", connected}, {"failed", failed},   {"dropped", dropped},
            {"echoes", echoes},       {"mismatched", mismatched}, {"elapsed_s", elapsed_s},
            {"cpu_s", cpu_s},         {"rtt_p50_us", rtt_us.count() ? rtt_us.value_at_percentile(50) : 0},
            {"rtt_p99_us", rtt_us.count() ? rtt_us.value_at_percentile(99) : 0}, {"errors", std::move(errs)}};
}

WsEchoResult run_ws_echo(const WsEchoSpec& spec, const std::atomic<bool>* stop) {
    if (spec.connections == 0) throw std::invalid_argument("websocket load: connections must be at least 1");
    if (spec.port == 0) throw std::invalid_argument("websocket load: no port");
    if (spec.path.empty() || spec.path[0] != '/') throw std::invalid_argument("websocket load: path must start with '/'");
    if (pin_this_thread(spec.cpus) != 0)
        throw std::invalid_argument("websocket load: cannot run on the generator's CPUs");
    WsEchoResult result;
    asio::io_context io;
    asio::ip::tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(spec.host, std::to_string(spec.port));
    if (endpoints.empty()) throw std::invalid_argument("websocket load: cannot resolve " + spec.host);
    const auto target = endpoints.begin()->endpoint();
    const auto t0 = Clock::now();
    Run run{spec, result, t0 + std::chrono::duration_cast<Clock::duration>(spec.duration), stop,
            std::string(spec.message_bytes, 'w')};
    const double cpu0 = thread_cpu_s();
    for (unsigned i = 0; i < spec.connections; ++i) std::make_shared<Client>(io, run)->start(target);
    // Ctrl-C within 100 ms: the connects, upgrades and reads still pending are abandoned, not waited for.
    asio::steady_timer watchdog(io);
    std::function<void()> watch = [&] {
        watchdog.expires_after(std::chrono::milliseconds(100));
        watchdog.async_wait([&](const beast::error_code& ec) {
            if (ec) return;
            if (stop != nullptr && stop->load()) return io.stop();
            if (Clock::now() < run.end) watch();
        });
    };
    watch();
    io.run();
    result.elapsed_s = std::chrono::duration<double>(Clock::now() - t0).count();
    result.cpu_s = thread_cpu_s() - cpu0;
    return result;
}

}  // namespace stand::load
