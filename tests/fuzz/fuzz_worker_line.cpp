// The host <-> plugin worker wire as the host reads it: newline-delimited
// JSON from the worker's socket (isolation/line_channel.hpp), each message
// then read by read_worker_message (isolation/worker_message.hpp). The
// worker runs a plugin's code: whatever it sends ends as a message, a
// protocol failure or the end of the channel, never as an exception.
// Input: the bytes the worker writes before it closes its end.
#include "fuzz_input.hpp"
#include "isolation/line_channel.hpp"
#include "isolation/worker_message.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

using stand::fuzz::check;
using stand::isolation::LineChannel;
using stand::isolation::WorkerMessage;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    int fds[2];
    check(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0, "a socket pair can be made");
    // At most what the socket buffers without a reader (the host reads as the worker writes).
    const std::size_t n = std::min<std::size_t>(size, 64 * 1024);
    for (std::size_t done = 0; done < n;) {
        const ssize_t w = ::write(fds[1], data + done, n - done);
        check(w > 0, "the socket takes the input");
        done += static_cast<std::size_t>(w);
    }
    ::close(fds[1]);
    LineChannel channel(fds[0]);  // closes fds[0]
    try {
        boost::json::object m;
        for (std::size_t messages = 0; channel.receive(m, std::chrono::milliseconds(1000)) ==
                                       LineChannel::Status::kMessage;
             ++messages) {
            check(messages <= n, "no more messages than lines sent");
            const auto message = stand::isolation::read_worker_message(m, 1);
            if (message.kind == WorkerMessage::Kind::unexpected) check(!message.problem.empty(), "a problem is named");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped: %s\n", e.what());
        check(false, "the worker's messages are read without exceptions");
    }
    return 0;
}
