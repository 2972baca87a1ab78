// Whole-file reads and writes with errors that name the file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace stand::report {

// Throws ReportError "cannot read FILE: reason".
std::string read_text_file(const std::filesystem::path& file);
// Throws ReportError "cannot write FILE: reason".
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace stand::report
