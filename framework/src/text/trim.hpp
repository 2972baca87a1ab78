// `s` without the blanks around it (space, tab, CR, LF): one owner for the
// folders that read small text files, headers and lines.
#pragma once

#include <string_view>

namespace stand::text {

std::string_view trim(std::string_view s) noexcept;

}  // namespace stand::text
