// A mistake in what the user gave or in the user's environment (a file that
// cannot be read or written, a run directory in use): its message names the
// file or option, and stand exits 2, never 4 (which is stand's own bug).
#pragma once

#include <stdexcept>

namespace stand::text {

class UserError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stand::text
