#include "sampler/stat_file.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace stand::sampler {

StatFile::StatFile(std::filesystem::path path, Reopen reopen) : path_(std::move(path)), reopen_(reopen) {
    buffer_.resize(4096);
}

StatFile::~StatFile() {
    if (fd_ >= 0) ::close(fd_);
}

StatFile::StatFile(StatFile&& other) noexcept
    : path_(std::move(other.path_)), reopen_(other.reopen_), fd_(other.fd_), buffer_(std::move(other.buffer_)) {
    other.fd_ = -1;
}

std::optional<std::string_view> StatFile::read() {
    if (reopen_ == Reopen::each_read && fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return std::nullopt;
    for (;;) {
        ssize_t n = ::pread(fd_, buffer_.data(), buffer_.size(), 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return std::nullopt;
        auto got = static_cast<std::size_t>(n);
        // A seq_file may return less than it has; only a full buffer means it may not fit.
        if (got < buffer_.size() || buffer_.size() >= (1U << 20)) return std::string_view(buffer_.data(), got);
        buffer_.resize(buffer_.size() * 2);
    }
}

}  // namespace stand::sampler
