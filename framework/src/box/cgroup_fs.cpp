#include "box/cgroup_fs.hpp"

#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

#include <cerrno>
#include <climits>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace stand::box {

std::string errno_text(int err) { return std::generic_category().message(err); }

std::optional<std::string> read_text(const std::filesystem::path& file) {
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

std::optional<std::string> read_value(const std::filesystem::path& file) {
    auto text = read_text(file);
    if (!text) return std::nullopt;
    return std::string(text::trim(*text));
}

void write_text(const std::filesystem::path& file, std::string_view value) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    int err = errno;
    if (fd >= 0) {
        ssize_t n;
        do n = ::write(fd, value.data(), value.size());
        while (n < 0 && errno == EINTR);
        err = n == static_cast<ssize_t>(value.size()) ? 0 : (n < 0 ? errno : EIO);
        ::close(fd);
    }
    if (fd < 0 || err != 0)
        throw BoxError("cannot write '" + std::string(value) + "' to " + file.string() + ": " + errno_text(err));
}

std::vector<pid_t> read_procs(const std::filesystem::path& dir) {
    std::vector<pid_t> pids;
    auto text = read_text(dir / "cgroup.procs");
    if (!text) return pids;
    std::string_view rest(*text);
    while (!rest.empty()) {
        auto eol = rest.find('\n');
        if (auto v = parse_u64(rest.substr(0, eol)); v && *v > 0 && *v <= INT_MAX) pids.push_back(static_cast<pid_t>(*v));
        if (eol == std::string_view::npos) break;
        rest.remove_prefix(eol + 1);
    }
    return pids;
}

bool make_dir(const std::filesystem::path& dir) {
    if (::mkdir(dir.c_str(), 0755) == 0) return true;
    int err = errno;
    if (err == EEXIST) return false;
    throw BoxError("cannot create cgroup " + dir.string() + ": " + errno_text(err));
}

bool remove_dir(const std::filesystem::path& dir, std::chrono::milliseconds patience) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    for (;;) {
        if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return true;
        if (errno != EBUSY || std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

std::uint64_t v1_unlimited_bytes() {
    long page = ::sysconf(_SC_PAGESIZE);
    auto p = static_cast<std::uint64_t>(page > 0 ? page : 4096);
    return static_cast<std::uint64_t>(LONG_MAX) / p * p;
}

}  // namespace stand::box
