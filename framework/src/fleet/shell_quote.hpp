// One argument, or an argv, as text a POSIX shell reads back as exactly
// those words: what ssh runs on the remote side is always a shell line, so
// every argument that reaches it goes through here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stand::fleet {

// 'text' with each ' as '\''. Throws FleetError for a NUL (no shell word
// can hold one).
std::string shell_quote(std::string_view word);
// The words quoted and joined by spaces.
std::string shell_line(const std::vector<std::string>& argv);

}  // namespace stand::fleet
