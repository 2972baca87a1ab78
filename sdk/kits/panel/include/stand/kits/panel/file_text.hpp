// Small file reads the kit's messages need.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

namespace stand_panel_kit {

// The whole file ("" when it cannot be read).
std::string read_text(const std::filesystem::path& file);
// The last `bytes` of a file on one line ("..." in front when cut; "" when
// it cannot be read): what a message shows of a process's log.
std::string tail_of(const std::filesystem::path& file, std::size_t bytes = 300);
// The same for text already read.
std::string tail_text(const std::string& text, std::size_t bytes = 300);
// KEY=VALUE lines of an env file as compose reads its env_file: blank
// lines and lines starting with # skipped, the value taken as written.
// Error(STAND_E_NOT_FOUND / STAND_E_INVALID_ARGUMENT) naming the file and
// line, `what` first.
boost::json::object read_env_file(const std::filesystem::path& file, const std::string& what);
// Bytes of a file, or of every file below a folder, never following a
// symbolic link (a link counts as nothing: a link into the data dir must not
// count twice).
std::uintmax_t bytes_on_disk(const std::filesystem::path& p);

}  // namespace stand_panel_kit
