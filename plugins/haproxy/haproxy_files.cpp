#include "haproxy_files.hpp"

#include <stand/cpp/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stand_haproxy {

using stand::cpp::Error;

std::string read_text(const std::filesystem::path& file, const char* what) {
    std::ifstream in(file);
    if (!in)
        throw Error(std::filesystem::exists(file) ? STAND_E_IO : STAND_E_NOT_FOUND,
                    std::string("haproxy: cannot read ") + what + " " + file.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_private_file(const std::filesystem::path& file, const std::string& text) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw Error(STAND_E_IO, "haproxy: cannot create " + file.string() + ": " + std::strerror(errno));
    // An older file keeps its mode on O_TRUNC: force 0600.
    bool ok = ::fchmod(fd, 0600) == 0;
    std::size_t done = 0;
    while (ok && done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    int saved = errno;
    ::close(fd);
    if (!ok) throw Error(STAND_E_IO, "haproxy: cannot write " + file.string() + ": " + std::strerror(saved));
}

void write_text(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw Error(STAND_E_IO, "haproxy: cannot write " + file.string());
}

}  // namespace stand_haproxy
