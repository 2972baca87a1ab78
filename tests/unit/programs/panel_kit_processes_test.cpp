// The panel kit's declared processes (ProcessRunner) on a real plugin host:
// a call the host cancels (its step's timeout) while a process is not ready
// yet, or while a step still runs, names that process as a death does.
#include "host/plugin_host.hpp"
#include "temp_dir.hpp"

#include <stand/cpp/host.hpp>
#include <stand/kits/panel/process_runner.hpp>

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace stand;
using namespace std::chrono_literals;

namespace {

// A port of 127.0.0.1 the system gave, bound and not listening: nothing
// accepts a connection on it while this lives.
class QuietPort {
public:
    QuietPort() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) == 0);
        port_ = ntohs(a.sin_port);
    }
    ~QuietPort() { ::close(fd_); }
    QuietPort(const QuietPort&) = delete;
    QuietPort& operator=(const QuietPort&) = delete;
    std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

private:
    int fd_;
    int port_ = 0;
};

// A folder, made: the host's data dir of the plugin, which it makes before the plugin runs.
std::filesystem::path made(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    return dir;
}

// A plugin host whose call is cancelled after a while, as the host does at
// a step's timeout, and a runner of declared processes on it.
struct CancelledStart {
    test::TempDir dir;
    host::PluginHost ph{"demo-panel", [this] {
                            host::HostConfig c;
                            c.run_dir = dir.path() / "run";
                            return c;
                        }()};
    cpp::Host h{ph.get()};
    stand_panel_kit::ProcessRunner runner{h, "demo-panel", dir.path() / "data" / "demo-panel", made(dir.path() / "data"),
                                          [](const std::string& s) { return s; }};
    std::thread canceller;

    // start_all(), cancelled after `after`: the error it threw.
    std::string start_cancelled_after(std::chrono::milliseconds after) {
        canceller = std::thread([this, after] {
            std::this_thread::sleep_for(after);
            ph.cancel();
        });
        try {
            runner.start_all();
        } catch (const cpp::Error& e) {
            CHECK(e.code() == STAND_E_CANCELLED);
            return e.what();
        }
        FAIL("start_all() returned");
        return {};
    }
    ~CancelledStart() {
        if (canceller.joinable()) canceller.join();
    }
};

// The process in no box (the test host has none).
stand_panel_kit::PanelProcess unboxed(stand_panel_kit::PanelProcess p) {
    p.box = "";
    return p;
}

bool holds(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("panel kit processes: a service not ready when the host cancels the start is named, with its probe and log") {
    CancelledStart s;
    QuietPort port;
    auto slow = unboxed(stand_panel_kit::service("slow", {"/bin/sh", "-c", "echo warming up; exec sleep 30"}));
    slow.ready.tcp = port.address();  // its 60 s ready timeout is longer than the call is let run
    s.runner.set_processes({slow});
    const std::string what = s.start_cancelled_after(500ms);
    INFO(what);
    CHECK(what.rfind("demo-panel: the process 'slow' was not ready when the call was cancelled, ", 0) == 0);
    CHECK(holds(what, " s after it was started (nothing accepts TCP connections on " + port.address() + ");"));
    CHECK(holds(what, "slow.log ends: warming up"));
}

TEST_CASE("panel kit processes: a first-start step still running when the host cancels the start is named, with its log") {
    CancelledStart s;
    auto hang = unboxed(stand_panel_kit::step("hang", {"/bin/sh", "-c", "echo waiting for a lock; exec sleep 30"},
                                            stand_panel_kit::RunWhen::first_start));
    s.runner.set_processes({hang});
    const std::string what = s.start_cancelled_after(500ms);
    INFO(what);
    CHECK(what.rfind("demo-panel: the process 'hang' had not finished when the call was cancelled, ", 0) == 0);
    CHECK(holds(what, "hang.log ends: waiting for a lock"));
}
