#include "cli/stdout_check.hpp"

#include "cli/exit_codes.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace stand::cli {

// std::cout's characters into C's stdout, keeping the errno of the first
// write that failed (by the time anyone asks, errno is long gone).
class StdoutCheck::Buffer : public std::streambuf {
public:
    int error = 0;

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
        errno = 0;
        if (std::fputc(traits_type::to_char_type(c), stdout) == EOF) return failed();
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        errno = 0;
        const auto written = static_cast<std::streamsize>(std::fwrite(s, 1, static_cast<std::size_t>(n), stdout));
        if (written < n) failed();
        return written;
    }
    int sync() override {
        errno = 0;
        if (std::fflush(stdout) == 0) return 0;
        failed();
        return -1;
    }

private:
    int_type failed() {
        if (error == 0) error = errno != 0 ? errno : EIO;
        return traits_type::eof();
    }
};

StdoutCheck::StdoutCheck() : buffer_(std::make_unique<Buffer>()), previous_(std::cout.rdbuf(buffer_.get())) {}

StdoutCheck::~StdoutCheck() { std::cout.rdbuf(previous_); }

int StdoutCheck::finish(int code) {
    buffer_->pubsync();
    if (buffer_->error == 0 && std::ferror(stdout)) buffer_->error = EIO;
    if (buffer_->error == 0) return code;
    std::cerr << "stand: cannot write stdout: " << std::strerror(buffer_->error) << "\n";
    return code == kExitOk ? kExitUsage : code;
}

}  // namespace stand::cli
