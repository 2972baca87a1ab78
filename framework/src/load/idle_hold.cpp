#include "load/idle_hold.hpp"
#include "load/thread_affinity.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>

#include <sys/resource.h>

#include <memory>
#include <stdexcept>

namespace stand::load {
namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;
using tcp = asio::ip::tcp;

constexpr std::size_t kKeptErrors = 5;
constexpr unsigned kSpareFds = 64;  // the host's own files, sockets and pipes

unsigned raise_fd_limit() {
    rlimit lim{};
    getrlimit(RLIMIT_NOFILE, &lim);
    if (lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
        getrlimit(RLIMIT_NOFILE, &lim);
    }
    return lim.rlim_cur > 1'000'000 ? 1'000'000u : static_cast<unsigned>(lim.rlim_cur);
}

struct Shared {
    IdleHoldResult& result;
    bool holding = true;  // false once the hold is over: closes are ours
    void note(const std::string& what, const boost::system::error_code& ec) {
        if (result.errors.size() < kKeptErrors) result.errors.push_back(what + ": " + ec.message());
    }
};

// One idle connection: connect (and handshake), then a read that only ends
// when the server closes it.
class Idle : public std::enable_shared_from_this<Idle> {
public:
    Idle(asio::io_context& io, asio::ssl::context* tls, Shared& shared)
        : shared_(shared), socket_(io), timer_(io) {
        if (tls != nullptr) stream_ = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket_, *tls);
    }

    void start(const tcp::endpoint& target, std::chrono::milliseconds timeout, const std::function<void()>& done) {
        done_ = done;
        timer_.expires_after(timeout);
        timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (!ec) self->socket_.close();  // connect or handshake took too long
        });
        socket_.async_connect(target, [self = shared_from_this()](boost::system::error_code ec) {
            if (ec) return self->fail("connect", ec);
            if (!self->stream_) return self->opened();
            self->stream_->async_handshake(asio::ssl::stream_base::client, [self](boost::system::error_code ec2) {
                if (ec2) return self->fail("TLS handshake", ec2);
                self->opened();
            });
        });
    }

    bool open() const { return open_; }
    void close() {
        boost::system::error_code ignored;
        socket_.close(ignored);
    }

private:
    void fail(const char* what, const boost::system::error_code& ec) {
        timer_.cancel();
        ++shared_.result.failed;
        shared_.note(what, ec);
        done_();
    }

    void opened() {
        timer_.cancel();
        ++shared_.result.opened;
        open_ = true;
        done_();
        auto read = [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
            self->open_ = false;
            if (self->shared_.holding) {
                ++self->shared_.result.closed;
                self->shared_.note("closed by the server", ec);
            }
        };
        if (stream_) stream_->async_read_some(asio::buffer(byte_), read);
        else socket_.async_read_some(asio::buffer(byte_), read);
    }

    Shared& shared_;
    tcp::socket socket_;
    std::unique_ptr<asio::ssl::stream<tcp::socket&>> stream_;
    asio::steady_timer timer_;
    std::function<void()> done_;
    char byte_[1];
    bool open_ = false;
};

}  // namespace

boost::json::object IdleHoldResult::to_json() const {
    boost::json::array errs;
    for (const auto& e : errors) errs.emplace_back(e);
    return {{"opened", opened}, {"failed", failed}, {"closed", closed}, {"held", held},
            {"open_s", open_s}, {"fd_limit", fd_limit}, {"errors", std::move(errs)}};
}

IdleHoldResult hold_idle_connections(const IdleHoldSpec& spec, const std::atomic<bool>* stop) {
    if (spec.connections == 0) throw std::invalid_argument("idle connections: count must be at least 1");
    if (spec.port == 0) throw std::invalid_argument("idle connections: no port");
    IdleHoldResult result;
    result.fd_limit = raise_fd_limit();
    if (spec.connections + kSpareFds > result.fd_limit)
        throw std::invalid_argument("idle connections: " + std::to_string(spec.connections) +
                                    " connections need more file descriptors than the limit of " +
                                    std::to_string(result.fd_limit) + " (ulimit -n)");
    if (pin_this_thread(spec.cpus) != 0)
        throw std::invalid_argument("idle connections: cannot run on the generator's CPUs");
    asio::io_context io;
    std::unique_ptr<asio::ssl::context> tls;
    if (spec.tls) {
        tls = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
        tls->set_verify_mode(asio::ssl::verify_none);
    }
    tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(spec.host, std::to_string(spec.port));
    if (endpoints.empty()) throw std::invalid_argument("idle connections: cannot resolve " + spec.host);
    const auto target = endpoints.begin()->endpoint();

    Shared shared{result};
    std::vector<std::shared_ptr<Idle>> idle;
    idle.reserve(spec.connections);
    unsigned pending = spec.connections;
    const auto t0 = Clock::now();
    asio::steady_timer hold_end(io);
    asio::steady_timer poll(io);
    auto all_started = [&] {
        result.open_s = std::chrono::duration<double>(Clock::now() - t0).count();
        hold_end.expires_after(spec.hold);
        hold_end.async_wait([&](boost::system::error_code ec) {
            if (ec) return;  // cancelled by an interrupt
            shared.holding = false;
            poll.cancel();
            for (const auto& c : idle) result.held += c->open();
            for (const auto& c : idle) c->close();
        });
    };
    // Connections open a few at a time in flight (a SYN flood would measure the backlog).
    constexpr unsigned kInFlight = 64;
    unsigned next = 0;
    std::function<void()> launch = [&] {
        if (stop != nullptr && stop->load()) return;
        if (next >= spec.connections) return;
        auto c = std::make_shared<Idle>(io, tls.get(), shared);
        idle.push_back(c);
        ++next;
        c->start(target, spec.connect_timeout, [&] {
            if (--pending == 0) all_started();
            launch();
        });
    };
    for (unsigned i = 0; i < kInFlight && i < spec.connections; ++i) launch();
    // An interrupt ends the hold early: every connection is closed, none counted as held.
    std::function<void()> watch = [&] {
        poll.expires_after(std::chrono::milliseconds(100));
        poll.async_wait([&](boost::system::error_code ec) {
            if (ec || !shared.holding) return;
            if (stop != nullptr && stop->load()) {
                shared.holding = false;
                hold_end.cancel();
                for (const auto& c : idle) c->close();
                return;
            }
            watch();
        });
    };
    watch();
    io.run();
    return result;
}

}  // namespace stand::load
