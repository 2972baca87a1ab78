// Whole-file reads and writes with errors that name the file.
#pragma once

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
// Throws TextFileError "cannot write FILE: reason".
void write_text_file(const std::filesystem::path& file, std::string_view text);

}  // namespace stand::text
