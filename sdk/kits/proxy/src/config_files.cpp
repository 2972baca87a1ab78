#include <stand/kits/proxy/config_files.hpp>

#include <stand/cpp/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stand_proxy_kit {

using stand::cpp::Error;

void write_file(const std::filesystem::path& file, const std::string& text, bool private_file,
                const std::string& label) {
    const mode_t mode = private_file ? 0600 : 0666;
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) throw Error(STAND_E_IO, label + ": cannot create " + file.string() + ": " + std::strerror(errno));
    // An older file keeps its mode on O_TRUNC: force 0600 for key material.
    bool ok = !private_file || ::fchmod(fd, 0600) == 0;
    std::size_t done = 0;
    while (ok && done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    int saved = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) throw Error(STAND_E_IO, label + ": cannot write " + file.string() + ": " + std::strerror(saved));
}

std::string read_file(const std::filesystem::path& file, const std::string& what, const std::string& label) {
    std::ifstream in(file);
    if (!in)
        throw Error(std::filesystem::exists(file) ? STAND_E_IO : STAND_E_NOT_FOUND,
                    label + ": cannot read " + what + " " + file.string());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace stand_proxy_kit
