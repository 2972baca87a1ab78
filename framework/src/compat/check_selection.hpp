// `stand compat --check ID`: the ids asked for against the suite's own.
#pragma once

#include <string>
#include <vector>

namespace stand::compat {

// "" when every requested id is known; else, for the first unknown one, a
// message naming it, the known id closest to it (or why a panel check is
// not in the suite) and every known id.
std::string check_selection_problem(const std::vector<std::string>& requested, const std::vector<std::string>& known);

}  // namespace stand::compat
