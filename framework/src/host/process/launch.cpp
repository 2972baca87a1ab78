#include "host/process/launch.hpp"

#include "posix/cloexec.hpp"
#include "posix/unique_fd.hpp"

#include <stand/cpp/error.hpp>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace stand::host {
namespace {

using stand::cpp::Error;

// What the child writes to the report pipe when it gives up before execve.
struct ChildFailure {
    enum Stage : int { kSetpgid = 1, kCgroup, kStdio, kUser, kChdir, kExec };
    int stage;
    int index;  // which cgroup for kCgroup
    int error;  // errno
};

using Fd = posix::UniqueFd;

std::string errno_text(int err) { return std::generic_category().message(err); }

// Moves a fresh CLOEXEC descriptor to >= 3 so the child's dup2 onto 0..2
// cannot clobber it (the host may run with a standard stream closed).
Fd high_fd(int fd) {
    if (fd < 0 || fd >= 3) return Fd(fd);
    int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int err = errno;
    ::close(fd);
    errno = err;
    return Fd(moved);
}

// Mode 0600: a program's output may hold what it prints once (a setup key, a token).
Fd open_high(const char* path, int flags) { return high_fd(::open(path, flags | O_CLOEXEC, 0600)); }

// Async-signal-safe decimal formatting (no snprintf after fork).
int format_pid(pid_t pid, char* buf) {
    char tmp[24];
    int n = 0;
    auto v = static_cast<unsigned long>(pid);
    do {
        tmp[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (int i = 0; i < n; ++i) buf[i] = tmp[n - 1 - i];
    return n;
}

struct ChildArgs {
    const char* executable;
    char* const* argv;
    char* const* envp;
    const char* const* procs;  // "<cgroup>/cgroup.procs", procs_count of them
    std::size_t procs_count;
    const char* cwd;  // may be null
    const RunAs* run_as;  // may be null: stand's own user
    bool new_group;
    int stdin_fd, output_fd, report_fd;
};

[[noreturn]] void fail(const ChildArgs& a, int stage, int index) noexcept {
    ChildFailure f{stage, index, errno};
    [[maybe_unused]] auto n = ::write(a.report_fd, &f, sizeof f);
    ::_exit(127);
}

// Runs in the forked child: async-signal-safe calls only from here on.
[[noreturn]] void run_child(const ChildArgs& a) noexcept {
    // Ignored signals survive execve; handlers must not run in the child.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);

    if (a.new_group && ::setpgid(0, 0) != 0) fail(a, ChildFailure::kSetpgid, 0);

    char pid[24];
    int len = format_pid(::getpid(), pid);
    for (std::size_t i = 0; i < a.procs_count; ++i) {
        int fd = ::open(a.procs[i], O_WRONLY | O_CLOEXEC);
        if (fd < 0) fail(a, ChildFailure::kCgroup, static_cast<int>(i));
        ssize_t w = ::write(fd, pid, static_cast<std::size_t>(len));
        if (w != len) {
            if (w >= 0) errno = EIO;
            fail(a, ChildFailure::kCgroup, static_cast<int>(i));
        }
        ::close(fd);
    }

    if (::dup2(a.stdin_fd, 0) < 0 || ::dup2(a.output_fd, 1) < 0 || ::dup2(a.output_fd, 2) < 0)
        fail(a, ChildFailure::kStdio, 0);
    // After joining the box (as stand) and before chdir, so that the working
    // directory is entered with the user's own rights.
    if (a.run_as != nullptr &&
        (::setgroups(a.run_as->groups.size(), a.run_as->groups.data()) != 0 || ::setgid(a.run_as->gid) != 0 ||
         ::setuid(a.run_as->uid) != 0))
        fail(a, ChildFailure::kUser, 0);
    if (a.cwd != nullptr && ::chdir(a.cwd) != 0) fail(a, ChildFailure::kChdir, 0);

    posix::cloexec_from(3);

    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execve(a.executable, a.argv, a.envp);
    fail(a, ChildFailure::kExec, 0);
}

std::vector<char*> c_array(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

std::string failure_message(const ChildFailure& f, const SpawnPlan& plan) {
    std::string why = errno_text(f.error);
    switch (f.stage) {
    case ChildFailure::kSetpgid: return "setpgid failed: " + why;
    case ChildFailure::kCgroup:
        if (f.index >= 0 && static_cast<std::size_t>(f.index) < plan.cgroups.size())
            return "cannot join cgroup " + plan.cgroups[f.index].string() + ": " + why;
        return "cannot join cgroup: " + why;
    case ChildFailure::kStdio: return "cannot redirect stdio: " + why;
    case ChildFailure::kUser:
        return "cannot run as user '" + (plan.run_as ? plan.run_as->name : std::string()) + "': " + why +
               (::geteuid() != 0 ? " (stand is not root)" : "");
    case ChildFailure::kChdir: return "cannot enter cwd " + (plan.cwd ? plan.cwd->string() : "") + ": " + why;
    default: return "exec " + plan.executable + " failed: " + why;
    }
}

void reap(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace

pid_t launch_child(const SpawnPlan& plan, const std::filesystem::path& output) {
    // Everything the child touches is built here, before fork.
    auto argv = c_array(plan.argv);
    auto envp = c_array(plan.env);
    std::vector<std::string> procs;
    for (const auto& dir : plan.cgroups) procs.push_back((dir / "cgroup.procs").string());
    std::vector<const char*> procs_c;
    for (const auto& p : procs) procs_c.push_back(p.c_str());
    std::string cwd = plan.cwd ? plan.cwd->string() : std::string();

    Fd out = open_high(output.c_str(), O_WRONLY | O_CREAT | O_APPEND);
    if (out.get() < 0) throw Error(STAND_E_IO, "cannot open output " + output.string() + ": " + errno_text(errno));
    Fd null = open_high("/dev/null", O_RDONLY);
    if (null.get() < 0) throw Error(STAND_E_IO, "cannot open /dev/null: " + errno_text(errno));
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) throw Error(STAND_E_IO, "pipe failed: " + errno_text(errno));
    Fd report_read = high_fd(p[0]);
    Fd report_write = high_fd(p[1]);
    if (report_read.get() < 0 || report_write.get() < 0)
        throw Error(STAND_E_IO, "pipe failed: " + errno_text(errno));

    const ChildArgs args{.executable = plan.executable.c_str(),
                         .argv = argv.data(),
                         .envp = envp.data(),
                         .procs = procs_c.data(),
                         .procs_count = procs_c.size(),
                         .cwd = plan.cwd ? cwd.c_str() : nullptr,
                         .run_as = plan.run_as ? &*plan.run_as : nullptr,
                         .new_group = plan.new_process_group,
                         .stdin_fd = null.get(),
                         .output_fd = out.get(),
                         .report_fd = report_write.get()};

    // With every signal blocked no host handler can run in the child before
    // it has reset the dispositions.
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &old);
    pid_t pid = ::fork();
    if (pid == 0) run_child(args);
    int fork_errno = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0) throw Error(STAND_E_IO, "fork failed: " + errno_text(fork_errno));

    report_write.reset();
    ChildFailure failure{};
    ssize_t n;
    do n = ::read(report_read.get(), &failure, sizeof failure);
    while (n < 0 && errno == EINTR);
    int read_errno = errno;
    if (n == 0) return pid;  // the pipe closed on a successful execve
    if (n < 0) ::kill(pid, SIGKILL);  // cannot tell whether it started: do not keep it
    reap(pid);
    if (n < 0) throw Error(STAND_E_IO, "cannot read the spawn report: " + errno_text(read_errno));
    if (n != static_cast<ssize_t>(sizeof failure))
        throw Error(STAND_E_IO, "child for " + plan.executable + " failed before exec");
    throw Error(STAND_E_IO, failure_message(failure, plan));
}

}  // namespace stand::host
