#include "live/listener_limits.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace stand::live {

std::size_t connection_cap(std::uint64_t descriptor_limit) noexcept {
    constexpr std::uint64_t kMost = 16, kDescriptorsEach = 64;
    return static_cast<std::size_t>(std::clamp<std::uint64_t>(descriptor_limit / kDescriptorsEach, 1, kMost));
}

std::size_t connection_cap_here() noexcept {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return connection_cap(UINT64_MAX);
    return connection_cap(limit.rlim_cur);
}

Pace::Pace(double rate, double burst) noexcept : rate_(rate), burst_(burst), tokens_(burst) {}

std::chrono::nanoseconds Pace::wait_at(std::chrono::steady_clock::time_point now) noexcept {
    if (started_ && now > last_)
        tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - last_).count() * rate_);
    if (!started_ || now > last_) last_ = now;
    started_ = true;
    tokens_ -= 1;
    if (tokens_ >= 0) return std::chrono::nanoseconds(0);
    return std::chrono::nanoseconds(static_cast<std::int64_t>(-tokens_ / rate_ * 1e9));
}

}  // namespace stand::live
