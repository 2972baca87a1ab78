// The plugin worker on real plugins: the hello example, the bad plugins of
// tests/bad-plugins and fixture-stall, each in a child `stand __worker`.
// Killing a session: isolation/session_kill_test.cpp.
#include "isolation/plugin_worker.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/stand.h>

#include <doctest/doctest.h>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace stand;
using namespace std::chrono_literals;

namespace {

isolation::WorkerOptions options_for(const std::filesystem::path& plugin, const test::TempDir& dir) {
    isolation::WorkerOptions o;
    o.plugin_file = plugin;
    o.plugin_id = plugin.stem().string();
    o.host.run_dir = dir.path();
    o.stand_binary = test::stand_binary();
    o.cancel_grace = 200ms;
    return o;
}

// The same, with the run's interrupt flag and a 300 ms interrupt grace.
isolation::WorkerOptions interruptible(const std::filesystem::path& plugin, const test::TempDir& dir,
                                       const std::atomic<bool>& interrupted) {
    auto o = options_for(plugin, dir);
    o.interrupted = &interrupted;
    o.interrupt_grace = 300ms;
    return o;
}

}  // namespace

TEST_CASE("plugin worker: the hello probe runs in a child process") {
    test::TempDir dir;
    isolation::PluginWorker worker(options_for(test::hello_plugin(), dir));
    CHECK(worker.alive());
    auto created = worker.create(R"({"sleeps": 5, "sleep_us": 100})", 10s);
    REQUIRE_MESSAGE(created.ok(), created.error);

    auto jobs = worker.call("probe.list_jobs", {}, 10s);
    REQUIRE(jobs.ok());
    CHECK(jobs.output.as_array().at(0).at("id") == "timer-slack");

    auto run = worker.call("probe.run", {{"job", "timer-slack"}}, 10s);
    REQUIRE_MESSAGE(run.ok(), run.error);
    CHECK(run.output.at("metrics").at("sleeps").as_int64() == 5);

    auto missing = worker.call("probe.run", {{"job", "nope"}}, 10s);
    CHECK(missing.failure == isolation::WorkerReply::Failure::kNone);
    CHECK(missing.code == STAND_E_NOT_FOUND);
    CHECK(missing.error == "hello: no job 'nope' (try timer-slack)");

    auto unsupported = worker.call("panel.bootstrap", {}, 10s);
    CHECK(unsupported.code == STAND_E_UNSUPPORTED);
    CHECK(unsupported.error == "plugin hello does not implement stand.panel/1");

    auto unknown = worker.call("panel.frobnicate", {}, 10s);
    CHECK(unknown.code == STAND_E_INTERNAL);
    CHECK(unknown.error == "worker: unknown plugin method 'panel.frobnicate'");

    auto calls = worker.http_calls(10s);
    CHECK(calls.ok());
    CHECK(calls.output.as_array().empty());

    CHECK(worker.shutdown(5s).ok());
    CHECK_FALSE(worker.alive());
}

TEST_CASE("plugin worker: a SIGSEGV in create is a failed reply naming the signal") {
    test::TempDir dir;
    isolation::PluginWorker worker(options_for(test::bad_plugin("bad-segv"), dir));
    auto created = worker.create("{}", 10s);
    CHECK(created.failure == isolation::WorkerReply::Failure::kCrashed);
    CHECK(created.error.rfind("crashed with SIGSEGV (signal 11) during create", 0) == 0);
    CHECK_FALSE(worker.alive());
    auto after = worker.call("lifecycle.start", {}, 1s);
    CHECK(after.error == "worker is gone (earlier failure); cannot run lifecycle.start");
}

TEST_CASE("plugin worker: a hang is cancelled, then killed, within the timeout and grace") {
    test::TempDir dir;
    isolation::PluginWorker worker(options_for(test::bad_plugin("bad-hang"), dir));
    pid_t pid = worker.pid();
    auto t0 = std::chrono::steady_clock::now();
    auto created = worker.create("{}", 300ms);
    CHECK(std::chrono::steady_clock::now() - t0 < 3s);
    CHECK(created.failure == isolation::WorkerReply::Failure::kHung);
    CHECK(created.error == "create did not return within 300 ms, nor 200 ms after cancellation (worker killed)");
    CHECK(::kill(pid, 0) != 0);  // reaped
}

TEST_CASE("plugin worker: a call cancelled at its timeout says so, with what the plugin said as it stopped") {
    test::TempDir dir;
    isolation::PluginWorker worker(options_for(test::fixture_plugin("fixture-stall"), dir));
    REQUIRE(worker.create(R"({"stall": "start", "heed_cancel": true})", 10s).ok());
    auto started = worker.call("lifecycle.start", {}, 300ms);
    CHECK(started.code == STAND_E_TIMEOUT);
    CHECK(started.error == "lifecycle.start did not return within 300 ms and was cancelled: fixture-stall: start cancelled");
    CHECK(worker.alive());
}

TEST_CASE("plugin worker: an interrupt cancels a call at once and kills a deaf plugin after the interrupt grace") {
    test::TempDir dir;
    std::atomic<bool> interrupted{false};
    isolation::PluginWorker worker(interruptible(test::bad_plugin("bad-hang"), dir, interrupted));
    pid_t pid = worker.pid();
    std::thread signal([&interrupted] {
        std::this_thread::sleep_for(200ms);
        interrupted = true;
    });
    auto t0 = std::chrono::steady_clock::now();
    auto created = worker.create("{}", 30s);
    const auto took = std::chrono::steady_clock::now() - t0;
    signal.join();
    CHECK(took < 1s);
    CHECK(took >= 500ms);
    CHECK(created.failure == isolation::WorkerReply::Failure::kInterrupted);
    CHECK(created.error == "interrupted: create did not return within 300 ms of the interrupt (the worker and its processes were killed)");
    CHECK(::kill(pid, 0) != 0);  // reaped
}

TEST_CASE("plugin worker: after an interrupt every later call shares the one grace") {
    test::TempDir dir;
    std::atomic<bool> interrupted{false};
    isolation::PluginWorker worker(interruptible(test::hello_plugin(), dir, interrupted));
    REQUIRE(worker.create(R"({"sleeps": 1, "sleep_us": 100})", 10s).ok());
    CHECK(::getsid(worker.pid()) == worker.pid());  // a session of its own: what the plugin starts is found by it
    interrupted = true;
    // Quick calls still answer within the grace; the worker is not killed for nothing.
    CHECK(worker.http_calls(10s).ok());
    CHECK(worker.shutdown(5s).ok());
    CHECK_FALSE(worker.alive());
}

TEST_CASE("plugin worker: a plugin the loader refuses is an error reply, not a crash") {
    test::TempDir dir;
    isolation::PluginWorker worker(options_for(test::bad_plugin("bad-abi-major"), dir));
    auto created = worker.create("{}", 10s);
    CHECK(created.failure == isolation::WorkerReply::Failure::kNone);
    CHECK(created.code == STAND_E_INVALID_ARGUMENT);
    CHECK(created.error.find("built for ABI major 2") != std::string::npos);
}

TEST_CASE("plugin worker: a descriptor another thread opened without O_CLOEXEC is not inherited") {
    test::TempDir dir;
    const int opened = ::open("/dev/null", O_RDONLY);  // as a scraper's accepted socket was
    const int leaky = ::fcntl(opened, F_DUPFD, 20);     // above the worker's channel (3), without O_CLOEXEC
    ::close(opened);
    REQUIRE(leaky >= 20);
    isolation::PluginWorker worker(options_for(test::hello_plugin(), dir));
    REQUIRE(worker.create("{}", 10s).ok());  // past the exec
    const auto fd_dir = std::filesystem::path("/proc") / std::to_string(worker.pid()) / "fd";
    CHECK_FALSE(std::filesystem::exists(fd_dir / std::to_string(leaky)));
    CHECK(std::filesystem::exists(fd_dir / "3"));  // its channel to the host
    ::close(leaky);
}
