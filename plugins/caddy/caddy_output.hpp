// Reads what `caddy version` and `caddy validate` print.
#pragma once

#include <string>

namespace stand_caddy {

// "2.6.2" from `caddy version` ("2.6.2" on Debian, "v2.6.2 h1:..." upstream);
// empty when there is none.
std::string version_from_output(const std::string& text);

// Why a caddy command failed: the text after its last "Error: ", or the tail
// of the whole output when there is no such line.
std::string command_error(const std::string& text);

}  // namespace stand_caddy
