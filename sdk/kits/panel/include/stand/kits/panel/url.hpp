// URLs as panels return them: relative paths, "localhost" hosts.
#pragma once

#include <string>

namespace stand_panel_kit {

// An absolute URL for `ref` as seen from `base` (scheme://host[:port]...):
// absolute refs are returned as they are, "/path" keeps base's origin,
// "path" is resolved against base's directory.
std::string resolve_url(const std::string& base, const std::string& ref);
// "scheme://host[:port]" of an absolute URL.
std::string origin_of(const std::string& url);
// The path (with query) of an absolute URL, "/" when it has none.
std::string path_of(const std::string& url);

}  // namespace stand_panel_kit
