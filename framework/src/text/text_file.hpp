// Whole-file reads and writes with errors that name the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stand::text {

class TextFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws TextFileError "cannot read FILE: reason".
std::string read_text_file(const std::filesystem::path& file);

// The largest input file a user gives (a scenario, a plugin config, a table spec).
inline constexpr std::uintmax_t kMaxInputFileBytes = 4u << 20;  // 4 MiB
// A file the user gives: a regular file (not a FIFO, device or directory,
// which would block or never end) of at most `max_bytes`. Throws
// TextFileError "cannot read FILE: reason".
std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes = kMaxInputFileBytes);
// Throws TextFileError "cannot write FILE: reason".
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace stand::text
