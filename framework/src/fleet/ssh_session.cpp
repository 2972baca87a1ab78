#include "fleet/ssh_session.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/shell_quote.hpp"
#include "posix/line_reader.hpp"
#include "posix/write_all.hpp"
#include "text/temp_dir.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <future>
#include <system_error>

#include <pthread.h>
#include <unistd.h>

namespace stand::fleet {

namespace bp = boost::process;

namespace {

std::filesystem::path ssh_binary() {
    auto found = bp::search_path("ssh");
    if (found.empty()) throw FleetError("no ssh client in PATH (Debian: apt-get install openssh-client)");
    return found;
}

// Runs until the child has exited (`exited`, set by its on_exit handler)
// and its output is read, or `timeout` passes; true if in time.
bool run_until(boost::asio::io_context& io, bp::child& c, const bool& exited, std::chrono::seconds timeout) {
    io.run_for(timeout);
    if (exited) {
        c.wait();
        return true;
    }
    std::error_code ec;
    c.terminate(ec);
    return false;
}

// All of `data` to the pipe `fd`, or less when its reader is gone; the
// SIGPIPE that would end this process is blocked on this thread and taken
// back (only this write raised it).
void write_ignoring_sigpipe(int fd, const std::string& data) {
    sigset_t pipe_only, old;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    if (!posix::write_all(fd, data) && errno == EPIPE) {
        const timespec none{};
        ::sigtimedwait(&pipe_only, nullptr, &none);
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

// Each child in a process group of its own: a terminal's Ctrl-C or hangup
// (sent to stand's whole group) reaches stand alone, which then stops the
// remote side through these ssh children; had they died of it first, the
// remote stand and its generators would go on with nobody to stop them.
struct OwnProcessGroup : bp::extend::handler {
    template <class Executor>
    void on_exec_setup(Executor&) const {
        ::setpgid(0, 0);
    }
};
const OwnProcessGroup own_group;

}  // namespace

std::string last_line(const std::string& text) {
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
    const auto nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

SshSession::SshSession(SshTarget target, SshOptions options)
    : target_(std::move(target)), options_(std::move(options)), control_dir_(text::make_temp_dir("stand-ssh")) {}

SshSession::~SshSession() {
    std::error_code ec;
    try {
        auto argv = command({});
        argv.insert(argv.begin() + 1, {"-O", "exit"});
        argv.pop_back();  // the empty remote command
        bp::child c(ssh_binary(), std::vector<std::string>(argv.begin() + 1, argv.end()), bp::std_out > bp::null,
                    bp::std_err > bp::null, bp::std_in < bp::null, own_group);
        c.wait();
    } catch (const std::exception&) {
    }
    std::filesystem::remove_all(control_dir_, ec);
}

std::vector<std::string> SshSession::command(const std::vector<std::string>& remote_argv) const {
    std::vector<std::string> argv{ssh_binary().string()};
    if (!options_.config_file.empty()) argv.insert(argv.end(), {"-F", options_.config_file.string()});
    for (const std::string& o : {std::string("BatchMode=yes"), std::string("PasswordAuthentication=no"),
                                 std::string("KbdInteractiveAuthentication=no"),
                                 std::string("StrictHostKeyChecking=") + (options_.accept_new_host_key ? "accept-new" : "yes"),
                                 std::string("ControlMaster=auto"), "ControlPath=" + (control_dir_ / "%C").string(),
                                 std::string("ControlPersist=60"),
                                 "ConnectTimeout=" + std::to_string(options_.connect_timeout.count()),
                                 std::string("ServerAliveInterval=5"), std::string("ServerAliveCountMax=3"),
                                 std::string("LogLevel=ERROR")})
        argv.insert(argv.end(), {"-o", o});
    argv.insert(argv.end(), {"-p", std::to_string(target_.port), "-l", target_.user, "--", target_.address,
                             shell_line(remote_argv)});
    return argv;
}

void SshSession::check_ssh(int exit_code, const std::string& err) const {
    if (exit_code != 255) return;
    std::string why = last_line(err);
    if (why.find("Host key verification failed") != std::string::npos)
        why += " (the host's key is not in known_hosts: add it, or pass --accept-new-host-key to accept a new one)";
    throw FleetError("host " + target_.name + " (" + target_.url() + "): ssh failed: " +
                     (why.empty() ? "exit 255 without a message: the connection was lost (the host went down, "
                                    "or its sshd was stopped)"
                                  : why));
}

RemoteResult SshSession::run(const std::vector<std::string>& remote_argv, const std::string& input,
                             std::chrono::seconds timeout) const {
    const auto argv = command(remote_argv);
    boost::asio::io_context io;
    std::future<std::string> out, err;
    bool exited = false;
    bp::child c(argv.front(), std::vector<std::string>(argv.begin() + 1, argv.end()),
                bp::std_in < boost::asio::buffer(input), bp::std_out > out, bp::std_err > err, io,
                bp::on_exit([&exited](int, const std::error_code&) { exited = true; }), own_group);
    if (!run_until(io, c, exited, timeout))
        throw FleetError("host " + target_.name + ": '" + shell_line(remote_argv) + "' did not end within " +
                         std::to_string(timeout.count()) + " s");
    RemoteResult r{c.exit_code(), out.get(), err.get()};
    check_ssh(r.exit_code, r.err);
    return r;
}

RemoteResult SshSession::run_fed_by(const std::vector<std::string>& local_argv,
                                    const std::vector<std::string>& remote_argv, std::chrono::seconds timeout) const {
    const auto argv = command(remote_argv);
    boost::asio::io_context io;
    bp::pipe feed;
    std::future<std::string> out, err, producer_err;
    bp::child producer(bp::search_path(local_argv.front()),
                       std::vector<std::string>(local_argv.begin() + 1, local_argv.end()), bp::std_out > feed,
                       bp::std_err > producer_err, bp::std_in < bp::null, io, own_group);
    bool exited = false;
    bp::child c(argv.front(), std::vector<std::string>(argv.begin() + 1, argv.end()), bp::std_in < feed,
                bp::std_out > out, bp::std_err > err, io,
                bp::on_exit([&exited](int, const std::error_code&) { exited = true; }), own_group);
    feed.close();  // the children hold its ends now
    if (!run_until(io, c, exited, timeout)) {
        std::error_code ec;
        producer.terminate(ec);
        throw FleetError("host " + target_.name + ": '" + shell_line(remote_argv) + "' did not end within " +
                         std::to_string(timeout.count()) + " s");
    }
    producer.wait();
    RemoteResult r{c.exit_code(), out.get(), err.get()};
    check_ssh(r.exit_code, r.err);
    if (producer.exit_code() != 0)
        throw FleetError(local_argv.front() + " failed (exit " + std::to_string(producer.exit_code()) +
                         "): " + last_line(producer_err.get()));
    return r;
}

RemoteResult SshSession::run_into(const std::vector<std::string>& remote_argv,
                                  const std::vector<std::string>& local_argv, std::chrono::seconds timeout) const {
    const auto argv = command(remote_argv);
    boost::asio::io_context io;
    bp::pipe feed;
    std::future<std::string> err, consumer_err;
    bool exited = false, consumer_exited = false;
    bp::child c(argv.front(), std::vector<std::string>(argv.begin() + 1, argv.end()), bp::std_in < bp::null,
                bp::std_out > feed, bp::std_err > err, io,
                bp::on_exit([&exited](int, const std::error_code&) { exited = true; }), own_group);
    bp::child consumer(bp::search_path(local_argv.front()),
                       std::vector<std::string>(local_argv.begin() + 1, local_argv.end()), bp::std_in < feed,
                       bp::std_out > bp::null, bp::std_err > consumer_err, io,
                       bp::on_exit([&consumer_exited](int, const std::error_code&) { consumer_exited = true; }), own_group);
    feed.close();
    const bool in_time = run_until(io, c, exited, timeout);
    if (!in_time || !consumer_exited) {
        std::error_code ec;
        consumer.terminate(ec);
        if (!in_time)
            throw FleetError("host " + target_.name + ": '" + shell_line(remote_argv) + "' did not end within " +
                             std::to_string(timeout.count()) + " s");
    }
    consumer.wait();
    RemoteResult r{c.exit_code(), {}, err.get()};
    check_ssh(r.exit_code, r.err);
    if (consumer.exit_code() != 0)
        throw FleetError(local_argv.front() + " failed (exit " + std::to_string(consumer.exit_code()) +
                         "): " + last_line(consumer_err.get()));
    return r;
}

int SshSession::converse(const std::vector<std::string>& remote_argv, const LineIo& exchange) const {
    const auto argv = command(remote_argv);
    const auto err_file = control_dir_ / "converse.err";
    bp::opstream to;
    bp::pipe from;
    bp::child c(argv.front(), std::vector<std::string>(argv.begin() + 1, argv.end()), bp::std_in < to,
                bp::std_out > from, bp::std_err > err_file, own_group);
    ::close(from.native_sink());  // the writing end is the child's now
    from.assign_sink(-1);
    posix::LineReader reader(from.native_source());
    auto write_line = [&to](const std::string& line) { to << line << '\n' << std::flush; };
    auto read_line = [&reader, &remote_argv, this]() {
        std::string line;
        switch (reader.read_line(line, kConverseAnswerWithin)) {
            case posix::LineReader::Got::line: return line;
            case posix::LineReader::Got::timeout:
                throw FleetError("host " + target_.name + ": '" + shell_line(remote_argv) + "' sent no answer within " +
                                 std::to_string(kConverseAnswerWithin.count() / 1000) + " s; its connection was closed");
            case posix::LineReader::Got::end: break;
        }
        throw FleetError("host " + target_.name + ": the remote command ended early");
    };
    try {
        exchange(write_line, read_line);
    } catch (...) {
        to.pipe().close();
        std::error_code ec;
        c.terminate(ec);
        throw;
    }
    to.pipe().close();
    c.wait();
    std::ifstream err_in(err_file);
    const std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
    check_ssh(c.exit_code(), err);
    return c.exit_code();
}

int SshSession::stream(const std::vector<std::string>& remote_argv,
                       const std::function<void(const std::string&)>& on_line) const {
    return stream_lines(
        remote_argv,
        [&on_line](const std::string& line) -> std::optional<std::string> {
            on_line(line);
            return std::nullopt;
        },
        false);
}

int SshSession::stream_answering(const std::vector<std::string>& remote_argv, const Answerer& on_line) const {
    return stream_lines(remote_argv, on_line, true);
}

int SshSession::stream_lines(const std::vector<std::string>& remote_argv, const Answerer& on_line, bool keep_stdin) const {
    std::vector<std::string> merged{"sh", "-c", "exec \"$@\" 2>&1", "sh"};
    merged.insert(merged.end(), remote_argv.begin(), remote_argv.end());
    const auto argv = command(merged);
    const text::TempDir err_dir("stand-ssh-err");
    const auto err_file = err_dir.path() / "ssh.err";
    bp::pipe to;
    bp::ipstream from;
    bp::child c(argv.front(), std::vector<std::string>(argv.begin() + 1, argv.end()), bp::std_in < to,
                bp::std_out > from, bp::std_err > err_file, own_group);
    ::close(to.native_source());  // the reading end is the child's now
    to.assign_source(-1);
    if (!keep_stdin) to.close();
    for (std::string line; std::getline(from, line);)
        if (const auto reply = on_line(line); reply && keep_stdin) write_ignoring_sigpipe(to.native_sink(), *reply + "\n");
    to.close();
    c.wait();
    std::ifstream err_in(err_file);
    const std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
    check_ssh(c.exit_code(), err);
    return c.exit_code();
}

}  // namespace stand::fleet
