// This stand binary's GNU build-id (the linker's note, kept by strip): what
// tells two copies of stand apart when their version is the same, so a
// fleet host runs exactly the controller's build.
#pragma once

#include <string>

namespace stand::fleet {

// Lower-case hex; "" when the executable carries no build-id note.
std::string own_build_id();

}  // namespace stand::fleet
