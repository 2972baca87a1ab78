// The time budget of one exchange (connect, send, receive).
#pragma once

#include <chrono>
#include <string>

namespace stand::host::http {

struct Deadline {
    std::chrono::steady_clock::time_point at;
    std::chrono::milliseconds budget;  // for messages: what the caller allowed

    static Deadline after(std::chrono::milliseconds budget) {
        return {std::chrono::steady_clock::now() + budget, budget};
    }
    std::string describe() const { return "timeout_ms " + std::to_string(budget.count()); }
};

}  // namespace stand::host::http
