// Waiting in a test for what another process or thread does.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace stand::test {

// True once `done()` holds, polled every 10 ms; false after `limit`.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(3)) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

}  // namespace stand::test
