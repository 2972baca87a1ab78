#include "cli/sigint_stop.hpp"

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
    ::sigaction(SIGINT, &action, &previous_);
}

SigintStop::~SigintStop() { ::sigaction(SIGINT, &previous_, nullptr); }

const std::atomic<bool>& SigintStop::flag() noexcept { return g_stop; }

}  // namespace stand::cli
