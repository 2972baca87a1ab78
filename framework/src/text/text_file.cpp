#include "text/text_file.hpp"

#include "posix/unique_fd.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stand::text {

std::string read_text_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) throw TextFileError("cannot read " + file.string() + ": is a directory");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw TextFileError("cannot read " + file.string() + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw TextFileError("cannot read " + file.string() + ": read error");
    return text.str();
}

namespace {

TextFileError too_big(const std::filesystem::path& file, std::uintmax_t max_bytes) {
    return TextFileError("cannot read " + file.string() + ": more than the " + std::to_string(max_bytes) +
                         " bytes an input file may have");
}

// Opened and checked by the input-file rule (read_input_file).
posix::UniqueFd open_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of blocking.
    const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw TextFileError("cannot read " + file.string() + ": " + std::strerror(errno));
    posix::UniqueFd owned(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw TextFileError("cannot read " + file.string() + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw TextFileError("cannot read " + file.string() + ": is a directory");
    if (!S_ISREG(st.st_mode))
        throw TextFileError("cannot read " + file.string() + ": not a regular file (a FIFO, socket or device); give a file");
    if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
        throw TextFileError("cannot read " + file.string() + ": " + std::to_string(st.st_size) + " bytes, more than the " +
                            std::to_string(max_bytes) + " an input file may have");
    return owned;
}

}  // namespace

void check_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes) { open_input_file(file, max_bytes); }

std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
    const posix::UniqueFd owned = open_input_file(file, max_bytes);
    const int fd = owned.get();
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw TextFileError("cannot read " + file.string() + ": " + std::strerror(errno));
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > max_bytes) throw too_big(file, max_bytes);  // it grew while read
    }
    return text;
}

void write_text_file(const std::filesystem::path& file, std::string_view text) {
    write_text_file(file, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

void write_text_file(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw TextFileError("cannot write " + file.string() + ": " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw TextFileError("cannot write " + file.string() + ": write error");
}

}  // namespace stand::text
