// Ctrl-C as "stop early" for a command that measures (`stand load`,
// `stand tunnel`): while a SigintStop lives, the first SIGINT, SIGTERM or
// SIGHUP (a terminal's Ctrl-C, kill, a closed terminal or dropped ssh
// session) sets flag() instead of ending stand, and a second of the same
// kind ends it at once (SA_RESETHAND).
// The previous handler is back when it goes, also on an exception.
#pragma once

#include <atomic>
#include <csignal>

namespace stand::cli {

class SigintStop {
public:
    SigintStop();  // clears flag()
    ~SigintStop();
    SigintStop(const SigintStop&) = delete;
    SigintStop& operator=(const SigintStop&) = delete;

    // For the engines' `stop` hook; still readable after the SigintStop is gone.
    static const std::atomic<bool>& flag() noexcept;

    static constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

private:
    struct sigaction previous_[3] {};
};

}  // namespace stand::cli
