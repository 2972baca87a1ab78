// ProcessManager with real processes: exit statuses, signals, output files,
// environment, cwd, process groups and cgroup placement.
#include "host/process/process_manager.hpp"
#include "host/process/spawn_spec.hpp"

#include <stand/cpp/error.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
namespace json = boost::json;
using stand::host::BoxResolver;
using stand::host::ProcessManager;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        static std::atomic<int> counter{0};
        path = fs::temp_directory_path() /
               ("stand-pm-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

json::object spec_of(std::initializer_list<json::string_view> argv) {
    json::array a;
    for (auto s : argv) a.emplace_back(s);
    return json::object{{"argv", std::move(a)}};
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

template <class F>
void check_error(F&& f, stand_result code, const std::string& needle) {
    try {
        f();
        FAIL("expected stand::cpp::Error(" << std::string(stand_result_name(code)) << ")");
    } catch (const stand::cpp::Error& e) {
        CHECK(std::string(stand_result_name(e.code())) == stand_result_name(code));
        CHECK_MESSAGE(std::string(e.what()).find(needle) != std::string::npos, e.what(), " lacks ", needle);
    }
}

stand_process_status wait_for(ProcessManager& pm, std::uint64_t h, std::int64_t ms = 3000) {
    stand_process_status st{};
    REQUIRE(pm.wait(h, ms, st));
    return st;
}

// Processes of group `pgid` that are not zombies, from /proc.
int live_members(pid_t pgid) {
    int n = 0;
    for (const auto& e : fs::directory_iterator("/proc")) {
        std::string stat = slurp(e.path() / "stat");
        auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        long ppid = 0, pgrp = 0;
        rest >> state >> ppid >> pgrp;
        if (pgrp == pgid && state != 'Z' && state != 'X') ++n;
    }
    return n;
}

bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds limit = std::chrono::milliseconds(3000)) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (!cond()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

// Orphans of a killed group are reparented to us (subreaper) and reaped here,
// so "gone" means kill(-pgid, 0) fails with ESRCH.
bool group_gone(pid_t pgid) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    return eventually([&] {
        while (::waitpid(-pgid, nullptr, WNOHANG) > 0) {
        }
        return ::kill(-pgid, 0) == -1 && errno == ESRCH;
    });
}

// A shell whose background and foreground sleeps are both running.
std::pair<std::uint64_t, pid_t> spawn_tree(ProcessManager& pm) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    auto h = pm.spawn(spec_of({"/bin/sh", "-c", "sleep 30 & sleep 30; exit 0"}));
    stand_process_status st{};
    pm.wait(h, 0, st);
    auto pgid = static_cast<pid_t>(st.pid);
    REQUIRE(eventually([&] { return live_members(pgid) >= 3; }));
    return {h, pgid};
}

// A fresh cgroup directory in a writable hierarchy, removed at the end.
struct TestCgroup {
    fs::path dir;
    explicit TestCgroup(const fs::path& hierarchy) {
        auto d = hierarchy / ("stand-test-" + std::to_string(::getpid()));
        if (::mkdir(d.c_str(), 0755) == 0) dir = d;
    }
    ~TestCgroup() {
        if (!dir.empty()) eventually([&] { return ::rmdir(dir.c_str()) == 0 || errno == ENOENT; });
    }
};

}  // namespace

TEST_CASE("process manager: exit code is captured and cached") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto h = pm.spawn(spec_of({"/bin/sh", "-c", "exit 7"}));
    CHECK(h != 0);
    auto st = wait_for(pm, h);
    CHECK(st.struct_size == sizeof(stand_process_status));
    CHECK(st.state == STAND_PROCESS_EXITED);
    CHECK(st.exit_code == 7);
    CHECK(st.pid > 0);
    stand_process_status again{};
    REQUIRE(pm.wait(h, 0, again));
    CHECK(again.state == STAND_PROCESS_EXITED);
    CHECK(again.exit_code == 7);
    CHECK(again.pid == st.pid);
    CHECK(pm.signal(h, SIGTERM) == STAND_OK_NOTHING_TO_DO);
    pm.release(h);
    check_error([&] { pm.wait(h, 0, again); }, STAND_E_NOT_FOUND, std::to_string(h));
}

TEST_CASE("process manager: signal ends a process and is reported as SIGNALED") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto h = pm.spawn(spec_of({"sleep", "30"}));
    stand_process_status st{};
    CHECK_FALSE(pm.wait(h, 0, st));
    CHECK(st.state == STAND_PROCESS_RUNNING);
    CHECK(::getpgid(static_cast<pid_t>(st.pid)) == st.pid);  // own group by default
    CHECK(pm.signal(h, SIGTERM) == STAND_OK);
    st = wait_for(pm, h);
    CHECK(st.state == STAND_PROCESS_SIGNALED);
    CHECK(st.signal == SIGTERM);
    CHECK(pm.signal(h, SIGKILL) == STAND_OK_NOTHING_TO_DO);
}

TEST_CASE("process manager: wait with a timeout returns false quickly while running") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto h = pm.spawn(spec_of({"sleep", "30"}));
    stand_process_status st{};
    auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(pm.wait(h, 100, st));
    auto took = std::chrono::steady_clock::now() - t0;
    CHECK(st.state == STAND_PROCESS_RUNNING);
    CHECK(took >= std::chrono::milliseconds(90));
    CHECK(took < std::chrono::milliseconds(1000));
    t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(pm.wait(h, 0, st));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(50));
}

TEST_CASE("process manager: a wait in another thread sees the exit") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto h = pm.spawn(spec_of({"sleep", "30"}));
    stand_process_status st{};
    bool ended = false;
    std::thread waiter([&] { ended = pm.wait(h, -1, st); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(pm.signal(h, SIGKILL) == STAND_OK);  // the waiter does not hold the lock
    waiter.join();
    CHECK(ended);
    CHECK(st.state == STAND_PROCESS_SIGNALED);
    CHECK(st.signal == SIGKILL);
}

TEST_CASE("process manager: output file captures stdout and stderr") {
    TempDir tmp;
    ProcessManager pm(tmp.path / "out", {});
    SUBCASE("default file in the output dir") {
        auto h = pm.spawn(spec_of({"/bin/sh", "-c", "echo to-stdout; echo to-stderr >&2"}));
        wait_for(pm, h);
        fs::path out = pm.output_path(h);
        CHECK(out == tmp.path / "out" / ("proc-" + std::to_string(h) + "-sh.log"));
        CHECK(slurp(out) == "to-stdout\nto-stderr\n");
    }
    SUBCASE("explicit file is appended to") {
        auto spec = spec_of({"/bin/sh", "-c", "echo one; echo two >&2"});
        spec["output"] = (tmp.path / "log.txt").string();
        wait_for(pm, pm.spawn(spec));
        auto h = pm.spawn(spec);
        wait_for(pm, h);
        CHECK(pm.output_path(h) == (tmp.path / "log.txt").string());
        CHECK(slurp(tmp.path / "log.txt") == "one\ntwo\none\ntwo\n");
    }
    SUBCASE("stdin is /dev/null") {
        auto h = pm.spawn(spec_of({"/bin/sh", "-c", "cat; echo eof"}));
        CHECK(wait_for(pm, h).exit_code == 0);
        CHECK(slurp(pm.output_path(h)) == "eof\n");
    }
    SUBCASE("unwritable output is an IO error") {
        auto spec = spec_of({"true"});
        spec["output"] = (tmp.path / "no-such-dir" / "log").string();
        check_error([&] { pm.spawn(spec); }, STAND_E_IO, "no-such-dir");
    }
}

TEST_CASE("process manager: env overrides and clear_env") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    ::setenv("STAND_PM_INHERITED", "host", 1);
    ::setenv("STAND_PM_OVERRIDDEN", "host", 1);
    auto spec = spec_of({"/usr/bin/env"});
    spec["env"] = json::object{{"STAND_PM_OVERRIDDEN", "spec"}, {"STAND_PM_ADDED", "a b=c"}};
    auto h = pm.spawn(spec);
    wait_for(pm, h);
    auto text = slurp(pm.output_path(h));
    CHECK(text.find("STAND_PM_INHERITED=host\n") != std::string::npos);
    CHECK(text.find("STAND_PM_OVERRIDDEN=spec\n") != std::string::npos);
    CHECK(text.find("STAND_PM_OVERRIDDEN=host") == std::string::npos);
    CHECK(text.find("STAND_PM_ADDED=a b=c\n") != std::string::npos);

    spec["clear_env"] = true;
    spec["env"] = json::object{{"ONLY", "1"}};
    h = pm.spawn(spec);
    wait_for(pm, h);
    CHECK(slurp(pm.output_path(h)) == "ONLY=1\n");

    auto bad = spec_of({"/usr/bin/env"});
    bad["env"] = json::object{{"N", 1}};
    check_error([&] { pm.spawn(bad); }, STAND_E_INVALID_ARGUMENT, "env 'N'");
    ::unsetenv("STAND_PM_INHERITED");
    ::unsetenv("STAND_PM_OVERRIDDEN");
}

TEST_CASE("process manager: argv[0] is looked up in the child's PATH") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto spec = spec_of({"sh", "-c", "exit 3"});
    CHECK(wait_for(pm, pm.spawn(spec)).exit_code == 3);
    spec["env"] = json::object{{"PATH", (tmp.path / "empty").string()}};
    check_error([&] { pm.spawn(spec); }, STAND_E_NOT_FOUND, "'sh'");
}

TEST_CASE("process manager: cwd is honored and must exist") {
    TempDir tmp;
    ProcessManager pm(tmp.path / "out", {});
    auto spec = spec_of({"pwd"});
    spec["cwd"] = tmp.path.string();
    auto h = pm.spawn(spec);
    wait_for(pm, h);
    CHECK(slurp(pm.output_path(h)) == fs::canonical(tmp.path).string() + "\n");

    spec["cwd"] = (tmp.path / "missing").string();
    check_error([&] { pm.spawn(spec); }, STAND_E_NOT_FOUND, (tmp.path / "missing").string());
    std::ofstream(tmp.path / "file") << "x";
    spec["cwd"] = (tmp.path / "file").string();
    check_error([&] { pm.spawn(spec); }, STAND_E_INVALID_ARGUMENT, "not a directory");
}

TEST_CASE("process manager: a missing executable is NOT_FOUND before anything runs") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    check_error([&] { pm.spawn(spec_of({"stand-no-such-program-xyz"})); }, STAND_E_NOT_FOUND,
                "stand-no-such-program-xyz");
    check_error([&] { pm.spawn(spec_of({"/nonexistent/stand-prog"})); }, STAND_E_NOT_FOUND, "/nonexistent/stand-prog");
}

TEST_CASE("process manager: exec failures are IO errors with the errno text") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto file = tmp.path / "not-executable";
    std::ofstream(file) << "#!/bin/sh\necho hi\n";
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    check_error([&] { pm.spawn(spec_of({file.c_str()})); }, STAND_E_IO,
                "exec " + file.string() + " failed: Permission denied");
    auto bad_interp = tmp.path / "bad-interpreter";
    std::ofstream(bad_interp) << "#!/nonexistent/interpreter\n";
    fs::permissions(bad_interp, fs::perms::owner_all);
    check_error([&] { pm.spawn(spec_of({bad_interp.c_str()})); }, STAND_E_IO, "No such file or directory");
}

TEST_CASE("process manager: the spec is checked strictly") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto spec = spec_of({"true"});
    spec["bogus_key"] = 1;
    check_error([&] { pm.spawn(spec); }, STAND_E_INVALID_ARGUMENT, "bogus_key");
    check_error([&] { pm.spawn(json::object{}); }, STAND_E_INVALID_ARGUMENT, "argv");
    check_error([&] { pm.spawn(json::object{{"argv", json::array{}}}); }, STAND_E_INVALID_ARGUMENT, "argv");
    check_error([&] { pm.spawn(json::object{{"argv", json::array{"true", 1}}}); }, STAND_E_INVALID_ARGUMENT, "argv");
    spec = spec_of({"true"});
    spec["new_process_group"] = "yes";
    check_error([&] { pm.spawn(spec); }, STAND_E_INVALID_ARGUMENT, "new_process_group");
}

TEST_CASE("process manager: unknown handles") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    stand_process_status st{};
    check_error([&] { pm.signal(42, SIGTERM); }, STAND_E_NOT_FOUND, "42");
    check_error([&] { pm.wait(42, 0, st); }, STAND_E_NOT_FOUND, "42");
    check_error([&] { pm.output_path(42); }, STAND_E_NOT_FOUND, "42");
    CHECK_NOTHROW(pm.release(42));
}

TEST_CASE("process manager: signal reaches the whole process group") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto [h, pgid] = spawn_tree(pm);
    CHECK(pm.signal(h, SIGTERM) == STAND_OK);
    auto st = wait_for(pm, h);
    CHECK(st.state == STAND_PROCESS_SIGNALED);
    CHECK(st.signal == SIGTERM);
    CHECK(eventually([&] { return live_members(pgid) == 0; }));
    pm.release(h);
    CHECK(group_gone(pgid));
}

TEST_CASE("process manager: release kills the whole process group") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto [h, pgid] = spawn_tree(pm);
    pm.release(h);
    CHECK(group_gone(pgid));
    check_error([&] { pm.output_path(h); }, STAND_E_NOT_FOUND, std::to_string(h));
}

TEST_CASE("process manager: without its own group only the process is signalled") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto spec = spec_of({"sleep", "30"});
    spec["new_process_group"] = false;
    auto h = pm.spawn(spec);
    stand_process_status st{};
    pm.wait(h, 0, st);
    CHECK(::getpgid(static_cast<pid_t>(st.pid)) == ::getpgrp());
    CHECK(pm.signal(h, SIGKILL) == STAND_OK);  // we are still alive to check
    st = wait_for(pm, h);
    CHECK(st.state == STAND_PROCESS_SIGNALED);
    CHECK(st.signal == SIGKILL);
}

TEST_CASE("process manager: kill_all ends every child, handles stay valid") {
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    auto a = pm.spawn(spec_of({"sleep", "30"}));
    auto b = pm.spawn(spec_of({"sleep", "30"}));
    pm.kill_all();
    stand_process_status st{};
    for (auto h : {a, b}) {
        REQUIRE(pm.wait(h, 0, st));
        CHECK(st.state == STAND_PROCESS_SIGNALED);
        CHECK(st.signal == SIGKILL);
        CHECK(::kill(static_cast<pid_t>(st.pid), 0) == -1);  // reaped, not a zombie
    }
}

TEST_CASE("process manager: the destructor kills everything") {
    TempDir tmp;
    pid_t pgid = 0;
    pid_t lone = 0;
    {
        ProcessManager pm(tmp.path, {});
        pgid = spawn_tree(pm).second;
        auto spec = spec_of({"sleep", "30"});
        spec["new_process_group"] = false;
        stand_process_status st{};
        pm.wait(pm.spawn(spec), 0, st);
        lone = static_cast<pid_t>(st.pid);
    }
    CHECK(group_gone(pgid));
    CHECK((::kill(lone, 0) == -1 && errno == ESRCH));
}

TEST_CASE("process manager: boxes resolve to cgroups the child joins before exec") {
    TempDir tmp;
    auto resolver_for = [](std::vector<fs::path> dirs) -> BoxResolver {
        return [dirs](const std::string& box) -> std::vector<fs::path> {
            if (box == "measured") return dirs;
            throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, "unknown box '" + box + "'");
        };
    };
    auto spec = spec_of({"sleep", "5"});

    SUBCASE("unknown box") {
        ProcessManager pm(tmp.path, resolver_for({}));
        spec["box"] = "nope";
        check_error([&] { pm.spawn(spec); }, STAND_E_INVALID_ARGUMENT, "nope");
        ProcessManager no_boxes(tmp.path, {});
        check_error([&] { no_boxes.spawn(spec); }, STAND_E_INVALID_ARGUMENT, "nope");
    }
    SUBCASE("a cgroup that cannot be joined") {
        auto missing = tmp.path / "not-a-cgroup";
        ProcessManager pm(tmp.path, resolver_for({missing}));
        spec["box"] = "measured";
        check_error([&] { pm.spawn(spec); }, STAND_E_IO,
                    "cannot join cgroup " + missing.string() + ": No such file or directory");
    }
    SUBCASE("real cgroups") {
        std::vector<std::unique_ptr<TestCgroup>> groups;
        std::vector<fs::path> dirs;
        for (const char* h : {"/sys/fs/cgroup/pids", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/unified"}) {
            if (dirs.size() == 2) break;
            auto g = std::make_unique<TestCgroup>(h);
            if (g->dir.empty()) continue;
            dirs.push_back(g->dir);
            groups.push_back(std::move(g));
        }
        if (dirs.empty()) {
            WARN_MESSAGE(false, "no writable cgroup hierarchy: only the error paths of boxes are tested");
            return;
        }
        MESSAGE("testing cgroup placement in " << dirs.size() << " hierarchies");
        ProcessManager pm(tmp.path, resolver_for(dirs));  // destroyed before the cgroups
        spec["box"] = "measured";
        auto h = pm.spawn(spec);
        stand_process_status st{};
        pm.wait(h, 0, st);
        for (const auto& dir : dirs) {
            std::istringstream procs(slurp(dir / "cgroup.procs"));
            std::vector<long> pids{std::istream_iterator<long>(procs), std::istream_iterator<long>()};
            CHECK_MESSAGE(std::find(pids.begin(), pids.end(), st.pid) != pids.end(), dir.string());
        }
        pm.release(h);
        for (const auto& dir : dirs) CHECK(slurp(dir / "cgroup.procs").empty());
    }
}

TEST_CASE("spawn spec: ${stand.box.NAME} becomes the box's cgroup path for docker --cgroup-parent") {
    BoxResolver boxes = [](const std::string& name) -> std::vector<fs::path> {
        if (name != "measured") throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, "unknown box '" + name + "'");
        return {"/sys/fs/cgroup/cpu/stand/run.1.2/measured", "/sys/fs/cgroup/memory/stand/run.1.2/measured"};
    };
    auto plan = stand::host::parse_spawn_spec(
        boost::json::parse(R"({"argv": ["/bin/echo", "--cgroup-parent=${stand.box.measured}", "x${stand.box.measured}y"],
                               "env": {"PARENT": "${stand.box.measured}"}})")
            .as_object(),
        boxes);
    CHECK(plan.argv[1] == "--cgroup-parent=/stand/run.1.2/measured");
    CHECK(plan.argv[2] == "x/stand/run.1.2/measuredy");
    CHECK(std::find(plan.env.begin(), plan.env.end(), "PARENT=/stand/run.1.2/measured") != plan.env.end());
    CHECK(plan.cgroups.empty());  // the docker CLI itself is not placed in the box

    auto unknown = boost::json::parse(R"({"argv": ["/bin/echo", "${stand.box.client}"]})").as_object();
    CHECK_THROWS_WITH_AS(stand::host::parse_spawn_spec(unknown, boxes), doctest::Contains("unknown box 'client'"),
                         stand::cpp::Error);
    auto open = boost::json::parse(R"({"argv": ["/bin/echo", "${stand.box.measured"]})").as_object();
    CHECK_THROWS_WITH_AS(stand::host::parse_spawn_spec(open, boxes), doctest::Contains("unterminated"),
                         stand::cpp::Error);
    CHECK_THROWS_WITH_AS(stand::host::parse_spawn_spec(unknown, {}), doctest::Contains("this host has no boxes"),
                         stand::cpp::Error);
}

// Issue 37: a helper whose child left its group (setsid) and kept running
// made a panel check hang; SIGKILL ends every process it started.
TEST_CASE("process manager: SIGKILL also ends what the process started outside its group") {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    TempDir tmp;
    ProcessManager pm(tmp.path, {});
    const auto pid_file = tmp.path / "escaped.pid";
    auto h = pm.spawn(spec_of({"/bin/sh", "-c", "setsid sh -c 'echo $$ > " + pid_file.string() + "; exec sleep 600' & sleep 600"}));
    REQUIRE(eventually([&] { return fs::exists(pid_file) && fs::file_size(pid_file) > 0; }));
    pid_t escaped = 0;
    std::ifstream(pid_file) >> escaped;
    REQUIRE(escaped > 0);
    stand_process_status st{};
    pm.wait(h, 0, st);
    CHECK(::getpgid(escaped) != static_cast<pid_t>(st.pid));  // it left the helper's group
    CHECK(pm.signal(h, SIGKILL) == STAND_OK);
    wait_for(pm, h);
    CHECK(eventually([&] {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        return ::kill(escaped, 0) == -1 && errno == ESRCH;
    }));
}
