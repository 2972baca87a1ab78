#include "cli/sigint_stop.hpp"

#include <iterator>

namespace stand::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_sigint_stop(int) { g_stop.store(true); }

}  // namespace

SigintStop::SigintStop() {
    struct sigaction action {};
    action.sa_handler = on_sigint_stop;
    action.sa_flags = SA_RESETHAND;  // a second ^C ends stand at once
    sigemptyset(&action.sa_mask);
    g_stop.store(false);
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i) ::sigaction(kStopSignals[i], &action, &previous_[i]);
}

SigintStop::~SigintStop() {
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i) ::sigaction(kStopSignals[i], &previous_[i], nullptr);
}

const std::atomic<bool>& SigintStop::flag() noexcept { return g_stop; }

}  // namespace stand::cli
