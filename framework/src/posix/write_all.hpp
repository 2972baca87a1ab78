// All of a buffer to a file descriptor, across short writes and EINTR.
#pragma once

#include <cerrno>
#include <cstddef>
#include <string_view>

#include <unistd.h>

namespace stand::posix {

// False when the descriptor refused the rest (errno says why: EPIPE when
// the reader of a pipe is gone).
inline bool write_all(int fd, std::string_view data) {
    for (std::size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace stand::posix
