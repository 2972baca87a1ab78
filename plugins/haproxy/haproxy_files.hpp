// Small file helpers of the haproxy plugin.
#pragma once

#include <filesystem>
#include <string>

namespace stand_haproxy {

// The whole file; throws stand::cpp::Error(STAND_E_NOT_FOUND/STAND_E_IO) naming it.
std::string read_text(const std::filesystem::path& file, const char* what);

// Writes `text` to `file`, created or truncated with mode 0600 (key material).
void write_private_file(const std::filesystem::path& file, const std::string& text);

// Writes `text` to `file` (mode from the umask); throws naming the file.
void write_text(const std::filesystem::path& file, const std::string& text);

}  // namespace stand_haproxy
