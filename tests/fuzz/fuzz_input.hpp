// Splitting a fuzz input into choices and payload, for the harnesses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace stand::fuzz {

// Reads leading bytes as choices; what is left is the payload.
class FuzzInput {
public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    // The next byte (0 when there is none left).
    std::uint8_t byte() noexcept {
        if (size_ == 0) return 0;
        --size_;
        return *data_++;
    }
    // The next `n` bytes, or as many as are left.
    std::string_view take(std::size_t n) noexcept {
        const std::size_t k = n < size_ ? n : size_;
        const std::string_view taken(reinterpret_cast<const char*>(data_), k);
        data_ += k;
        size_ -= k;
        return taken;
    }
    bool empty() const noexcept { return size_ == 0; }
    std::string_view rest() const noexcept { return {reinterpret_cast<const char*>(data_), size_}; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
};

// A broken promise of the parser's interface is a finding like a crash.
inline void check(bool holds, const char* promise) {
    if (holds) return;
    std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
    std::abort();
}

}  // namespace stand::fuzz
