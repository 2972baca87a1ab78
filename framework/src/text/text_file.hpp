// Whole-file reads and writes with errors that name the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "text/user_error.hpp"

namespace stand::text {

class TextFileError : public UserError {
public:
    using UserError::UserError;
};

// Throws TextFileError "cannot read FILE: reason".
std::string read_text_file(const std::filesystem::path& file);

// The largest input file a user gives (a scenario, a plugin config, a table spec).
inline constexpr std::uintmax_t kMaxInputFileBytes = 4u << 20;  // 4 MiB
// A file the user gives, or one read back from a run directory: a regular
// file (not a FIFO, device or directory, which would block or never end; a
// symlink to one is refused too) of at most `max_bytes`, read through one
// descriptor so that a file swapped after the check is not read either.
// Throws TextFileError "cannot read FILE: reason".
std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes = kMaxInputFileBytes);
// The same rule for a file another library or program reads (a CA bundle,
// an ssh config): checked, not read. Throws TextFileError.
void check_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes = kMaxInputFileBytes);
// Throws TextFileError "cannot write FILE: reason".
void write_text_file(const std::filesystem::path& file, std::string_view text);
// The same for a text `write` puts into the file's stream as it makes it (a
// large one never held whole).
void write_text_file(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);

}  // namespace stand::text
