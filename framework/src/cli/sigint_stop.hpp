// Ctrl-C as "stop early" for a command that measures (`stand load`,
// `stand tunnel`): while a SigintStop lives, the first SIGINT sets flag()
// instead of ending stand, and a second one ends it at once (SA_RESETHAND).
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

private:
    struct sigaction previous_ {};
};

}  // namespace stand::cli
