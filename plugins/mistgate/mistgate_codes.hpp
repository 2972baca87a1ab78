// The owner's TOTP codes. A code works once: the last step used is kept in
// the state file (mistgate_state.hpp), which every instance of the adapter
// reads before it computes a code, and a used step is waited out on the
// host's clock (cancellable).
#pragma once

#include <stand/stand.hpp>

#include <filesystem>
#include <string>

namespace stand_mistgate {

// The next unused code of the owner whose secret `state_file` keeps.
// Error(STAND_E_BAD_STATE) when no secret is known, STAND_E_CANCELLED when
// the host cancels the wait.
std::string next_code(const stand::cpp::Host& host, const std::filesystem::path& state_file);

}  // namespace stand_mistgate
