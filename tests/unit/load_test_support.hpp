// Servers for the load generator's tests, all on 127.0.0.1:
//  - Nginx: a real nginx (Debian package `nginx`) from a temporary config,
//    with an access log that records per request the connection serial
//    number, the peer address, X-Forwarded-For and the URI.
//  - ScriptServer: a small Asio server whose handler decides per request
//    what bytes to send, in pieces and with delays, or to hang or close.
#pragma once

#include "temp_dir.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace stand::test {

inline unsigned short free_port() {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

inline bool can_connect(unsigned short port) {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::socket s(ioc);
    boost::system::error_code ec;
    s.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
    return !ec;
}

inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class Nginx {
public:
    static constexpr const char* kBinary = "/usr/sbin/nginx";
    static bool available() { return ::access(kBinary, X_OK) == 0; }

    // One access-log line: "$connection $remote_addr $http_x_forwarded_for $request_uri $status".
    struct Entry {
        std::string connection, remote, xff, uri;
        int status = 0;
    };

    // `locations`: extra `location` blocks; "/" answers 200 "ok", "/429" answers 429.
    explicit Nginx(const std::string& locations = "") {
        for (int attempt = 0; attempt < 5; ++attempt) {
            port_ = free_port();
            if (start(locations)) return;
            stop();
        }
        throw std::runtime_error("nginx did not start: " + read_text(dir_.path() / "error.log"));
    }
    ~Nginx() { stop(); }
    Nginx(const Nginx&) = delete;
    Nginx& operator=(const Nginx&) = delete;

    unsigned short port() const { return port_; }
    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

    // Stops nginx (so that every log line is written) and returns the access log.
    std::vector<Entry> log() {
        stop();
        std::vector<Entry> out;
        std::istringstream in(read_text(dir_.path() / "access.log"));
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            Entry e;
            fields >> e.connection >> e.remote >> e.xff >> e.uri >> e.status;
            out.push_back(e);
        }
        return out;
    }

private:
    bool start(const std::string& locations) {
        const auto prefix = dir_.path().string();
        std::filesystem::create_directories(dir_.path() / "tmp");
        std::ofstream conf(dir_.path() / "nginx.conf");
        conf << (::geteuid() == 0 ? "user root;\n" : "") << "worker_processes 1;\n"
             << "error_log " << prefix << "/error.log warn;\n"
             << "pid " << prefix << "/nginx.pid;\n"
             << "events { worker_connections 1024; }\n"
             << "http {\n"
             << "  log_format t '$connection $remote_addr $http_x_forwarded_for $request_uri $status';\n"
             << "  access_log " << prefix << "/access.log t;\n"
             << "  client_body_temp_path " << prefix << "/tmp/body;\n"
             << "  proxy_temp_path " << prefix << "/tmp/proxy;\n"
             << "  fastcgi_temp_path " << prefix << "/tmp/fastcgi;\n"
             << "  uwsgi_temp_path " << prefix << "/tmp/uwsgi;\n"
             << "  scgi_temp_path " << prefix << "/tmp/scgi;\n"
             << "  keepalive_requests 100000;\n"
             << "  server {\n"
             << "    listen 127.0.0.1:" << port_ << ";\n"
             << "    location / { return 200 \"ok\"; }\n"
             << "    location /429 { return 429 \"slow down\"; }\n"
             << locations << "\n"
             << "  }\n"
             << "}\n";
        conf.close();
        const std::string conf_path = (dir_.path() / "nginx.conf").string();
        const std::string err_path = (dir_.path() / "stderr.log").string();
        std::vector<std::string> args = {kBinary, "-c", conf_path, "-p", prefix, "-g", "daemon off;"};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        const int rc = posix_spawn(&pid_, kBinary, &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            pid_ = -1;
            return false;
        }
        for (int i = 0; i < 500; ++i) {
            if (can_connect(port_)) return true;
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }

    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGQUIT);  // graceful: finishes and logs what is in flight
        int status = 0;
        for (int i = 0; i < 300; ++i) {
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }

    TempDir dir_;
    unsigned short port_ = 0;
    pid_t pid_ = -1;
};

// What ScriptServer sends for one request.
struct Script {
    struct Piece {
        std::chrono::milliseconds delay{0};  // before this piece
        std::string bytes;
    };
    std::vector<Piece> pieces;
    bool close_after = false;  // close the connection after the pieces
    bool hang = false;         // never answer (the connection stays open)

    static Script ok(std::string body = "ok", std::chrono::milliseconds delay = {}) {
        Script s;
        s.pieces.push_back({delay, "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body});
        return s;
    }
};

class ScriptServer {
public:
    using Handler = std::function<Script(const std::string& request)>;

    explicit ScriptServer(Handler handler)
        : handler_(std::move(handler)), acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}),
          port_(acceptor_.local_endpoint().port()) {
        boost::asio::co_spawn(ioc_, accept_loop(), boost::asio::detached);
        thread_ = std::thread([this] { ioc_.run(); });
    }
    ~ScriptServer() {
        ioc_.stop();
        thread_.join();
    }
    ScriptServer(const ScriptServer&) = delete;
    ScriptServer& operator=(const ScriptServer&) = delete;

    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    int connections() const {
        std::lock_guard lock(mutex_);
        return connections_;
    }
    int requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }

private:
    boost::asio::awaitable<void> accept_loop() {
        for (;;) {
            auto socket = co_await acceptor_.async_accept(boost::asio::use_awaitable);
            {
                std::lock_guard lock(mutex_);
                ++connections_;
            }
            boost::asio::co_spawn(ioc_, serve(std::move(socket)), boost::asio::detached);
        }
    }

    boost::asio::awaitable<void> serve(boost::asio::ip::tcp::socket socket) {
        try {
            boost::asio::streambuf in;
            for (;;) {
                const std::size_t n = co_await boost::asio::async_read_until(socket, in, "\r\n\r\n", boost::asio::use_awaitable);
                std::string request(boost::asio::buffers_begin(in.data()), boost::asio::buffers_begin(in.data()) + static_cast<std::ptrdiff_t>(n));
                in.consume(n);
                Script script;
                {
                    std::lock_guard lock(mutex_);
                    ++requests_;
                }
                script = handler_(request);
                if (script.hang) {
                    boost::asio::steady_timer forever(ioc_, std::chrono::minutes(5));
                    co_await forever.async_wait(boost::asio::use_awaitable);
                    co_return;
                }
                for (const auto& piece : script.pieces) {
                    if (piece.delay.count() > 0) {
                        boost::asio::steady_timer t(ioc_, piece.delay);
                        co_await t.async_wait(boost::asio::use_awaitable);
                    }
                    co_await boost::asio::async_write(socket, boost::asio::buffer(piece.bytes), boost::asio::use_awaitable);
                }
                if (script.close_after || request.find("Connection: close") != std::string::npos) co_return;
            }
        } catch (const std::exception&) {
            // The client went away.
        }
    }

    Handler handler_;
    boost::asio::io_context ioc_;
    boost::asio::ip::tcp::acceptor acceptor_;
    unsigned short port_;
    std::thread thread_;
    mutable std::mutex mutex_;
    int connections_ = 0;
    int requests_ = 0;
};

}  // namespace stand::test
