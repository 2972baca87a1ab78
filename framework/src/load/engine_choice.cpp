#include "load/engine_choice.hpp"

#include "load/uring_ring.hpp"

namespace stand::load {

EngineChoice choose_engine(const LoadSpec& spec, const Plan& plan, const std::string& uring_refusal) {
    if (spec.http3.enabled || spec.engine == Engine::asio) return {Engine::asio, ""};
    const bool asked = spec.engine == Engine::uring;
    if (plan.any_tls) {
        if (asked)
            throw LoadSpecError("--engine uring: the io_uring engine carries plain http:// only; https:// links need "
                                "--engine asio (or auto)");
        return {Engine::asio, "https:// links: io_uring carries plain HTTP/1.1 only"};
    }
    if (!uring_refusal.empty()) {
        if (asked) throw LoadSpecError("--engine uring: io_uring is refused here (" + uring_refusal + ")");
        return {Engine::asio, "io_uring refused here: " + uring_refusal};
    }
    return {Engine::uring, ""};
}

EngineChoice choose_engine(const LoadSpec& spec, const Plan& plan) {
    if (spec.http3.enabled || spec.engine == Engine::asio) return {Engine::asio, ""};
    // https:// links never run on io_uring: no need to probe the kernel for them.
    return choose_engine(spec, plan, plan.any_tls ? std::string() : UringRing::refusal());
}

const char* engine_name(Engine engine) noexcept {
    switch (engine) {
    case Engine::uring: return "io_uring";
    case Engine::asio: return "asio";
    case Engine::automatic: break;
    }
    return "auto";
}

}  // namespace stand::load
