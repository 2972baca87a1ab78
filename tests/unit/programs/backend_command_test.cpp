// `stand backend`, the built-in backend as a command (stand is a child
// process): its ready line, a request, SIGTERM and its final counters, and
// what it refuses. The backend itself: backend/backend_server_test.cpp.
#include "backend/host_port.hpp"

#include "backend/backend_clients.hpp"
#include "test_paths.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace stand::backend;
using namespace stand::test;
using namespace std::chrono_literals;

namespace {

// `stand ARGS...` with stdout and stderr on pipes; killed if still running
// at the end of the test.
class StandProcess {
public:
    explicit StandProcess(const std::vector<std::string>& args) {
        REQUIRE(::pipe2(out_, O_CLOEXEC) == 0);
        REQUIRE(::pipe2(err_, O_CLOEXEC) == 0);
        ::fcntl(err_[0], F_SETFL, O_NONBLOCK);  // stderr_text() must not wait for a live process
        std::vector<std::string> all = {stand::test::stand_binary().string()};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out_[1], STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, err_[1], STDERR_FILENO);
        const int rc = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(out_[1]);
        ::close(err_[1]);
        REQUIRE_MESSAGE(rc == 0, "cannot start ", all[0]);
    }
    ~StandProcess() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_[0]);
        ::close(err_[0]);
    }
    StandProcess(const StandProcess&) = delete;
    StandProcess& operator=(const StandProcess&) = delete;

    pid_t pid() const { return pid_; }

    // The next line of stdout, without its newline; nullopt at the end of
    // the output or after `timeout`.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 10s) {
        const auto give_up = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (auto newline = stdout_.find('\n'); newline != std::string::npos) {
                std::string line = stdout_.substr(0, newline);
                stdout_.erase(0, newline + 1);
                return line;
            }
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
            if (left <= 0ms) return std::nullopt;
            pollfd fd{out_[0], POLLIN, 0};
            if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
            char chunk[4096];
            const ssize_t n = ::read(out_[0], chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            stdout_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // The exit status, or -1 if it did not exit within `timeout`.
    int wait_exit(std::chrono::milliseconds timeout = 10s) {
        const auto give_up = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < give_up) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(10ms);
        }
        return -1;
    }

    // What the process wrote to stderr so far (all of it once it has exited).
    std::string stderr_text() {
        std::string text;
        char chunk[4096];
        ssize_t n = 0;
        while ((n = ::read(err_[0], chunk, sizeof chunk)) > 0) text.append(chunk, static_cast<std::size_t>(n));
        return text;
    }

private:
    int out_[2] = {-1, -1};
    int err_[2] = {-1, -1};
    pid_t pid_ = -1;
    std::string stdout_;
};

}  // namespace

TEST_CASE("backend command: ready line, a request, SIGTERM, final counters") {
    StandProcess stand({"backend", "--body-bytes", "10", "--threads", "2"});
    const auto ready_line = stand.read_line();
    REQUIRE_MESSAGE(ready_line.has_value(), "no ready line; stderr: ", stand.stderr_text());
    const auto ready = json_object(*ready_line);
    CHECK(ready.size() == 6);
    CHECK(ready.at("ws_path").as_string() == "/ws");
    CHECK(counter(ready, "body_bytes") == 10);
    CHECK(counter(ready, "threads") == 2);
    CHECK(counter(ready, "pid") == static_cast<std::uint64_t>(stand.pid()));
    const auto listen = parse_host_port(std::string(ready.at("listen").as_string()));
    const auto control = parse_host_port(std::string(ready.at("control").as_string()));
    CHECK(listen.address() == net::ip::make_address("127.0.0.1"));
    CHECK(listen.port() != 0);
    CHECK(control.port() != 0);
    CHECK(control.port() != listen.port());

    const auto response = run_client(get_once(listen, "/"));
    CHECK(response.result() == http::status::ok);
    CHECK(response.body() == std::string(10, 'x'));
    const auto live = json_object(run_client(get_once(control, "/stats")).body());
    CHECK(counter(live, "accepted") == 1);

    REQUIRE(::kill(stand.pid(), SIGTERM) == 0);
    const auto final_line = stand.read_line();
    REQUIRE(final_line.has_value());
    const auto final_stats = json_object(*final_line);
    CHECK(counter(final_stats, "accepted") == 1);
    CHECK(counter(final_stats, "requests") == 1);
    CHECK(stand.wait_exit() == 0);
}

TEST_CASE("backend command: refuses a non-loopback listener without --allow-remote") {
    StandProcess stand({"backend", "--listen", "8.8.8.8:80"});
    CHECK_FALSE(stand.read_line().has_value());  // no ready line
    CHECK(stand.wait_exit() == 2);
    const std::string error = stand.stderr_text();
    CHECK(error.find("--allow-remote") != std::string::npos);
    CHECK(error.find("8.8.8.8:80") != std::string::npos);
}

TEST_CASE("backend command: a port in use and bad numbers") {
    net::io_context context;
    tcp::acceptor taken(context, {net::ip::make_address("127.0.0.1"), 0});
    const std::string address = format_host_port(taken.local_endpoint());
    {
        StandProcess stand({"backend", "--listen", address});
        CHECK(stand.wait_exit() == 1);  // a runtime failure, not a usage error
        CHECK(stand.stderr_text().find("cannot listen on " + address) != std::string::npos);
    }
    {
        StandProcess stand({"backend", "--threads", "0"});
        CHECK(stand.wait_exit() == 2);
        CHECK(stand.stderr_text().find("--threads") != std::string::npos);
    }
    {
        StandProcess stand({"backend", "--listen", "127.0.0.1"});
        CHECK(stand.wait_exit() == 2);
        CHECK(stand.stderr_text().find("HOST:PORT") != std::string::npos);
    }
}
