// A file holding given bytes, for parsers that read a path (cpuinfo,
// cgroupfs files): a memfd, named by its /proc/self/fd path.
#pragma once

#include "fuzz_input.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <string_view>

namespace stand::fuzz {

class MemoryFile {
public:
    explicit MemoryFile(std::string_view bytes) : fd_(::memfd_create("fuzz", 0)) {
        check(fd_ >= 0, "a memory file can be made");
        for (std::size_t done = 0; done < bytes.size();) {
            const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
            check(n > 0, "the memory file takes the input");
            done += static_cast<std::size_t>(n);
        }
    }
    ~MemoryFile() { ::close(fd_); }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

private:
    int fd_;
};

}  // namespace stand::fuzz
