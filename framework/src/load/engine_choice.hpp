// Which engine carries an HTTP/1.1 load (LoadSpec::engine), and why when
// the automatic choice is not io_uring.
#pragma once

#include "load/load_plan.hpp"
#include "load/load_spec.hpp"

#include <string>

namespace stand::load {

struct EngineChoice {
    Engine engine = Engine::asio;  // uring or asio
    std::string note;              // why Asio, when the user left the choice to us
};

// `uring_refusal`: why io_uring cannot run here (empty: it can). Throws
// LoadSpecError when the user asked for io_uring and it cannot carry this load.
EngineChoice choose_engine(const LoadSpec& spec, const Plan& plan, const std::string& uring_refusal);
// The same with this machine's answer (UringRing::refusal()).
EngineChoice choose_engine(const LoadSpec& spec, const Plan& plan);

const char* engine_name(Engine engine) noexcept;

}  // namespace stand::load
