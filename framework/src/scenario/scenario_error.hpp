// The one error a scenario file can cause: where (file, and the JSON path or
// the line and column of a syntax error) and what was expected.
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace stand::scenario {

class ScenarioError : public std::runtime_error {
public:
    // what(): "<file>: <json_path>: <message>" ("<file>: <message>" without a path).
    ScenarioError(std::filesystem::path file, std::string json_path, std::string message);
    // A syntax error; what(): "<file>:<line>:<column>: <message>".
    ScenarioError(std::filesystem::path file, std::size_t line, std::size_t column, std::string message);

    const std::filesystem::path& file() const noexcept { return file_; }
    const std::string& json_path() const noexcept { return json_path_; }  // "" for syntax and I/O errors
    const std::string& message() const noexcept { return message_; }
    std::size_t line() const noexcept { return line_; }  // 1-based; 0 unless a syntax error
    std::size_t column() const noexcept { return column_; }

private:
    std::filesystem::path file_;
    std::string json_path_;
    std::string message_;
    std::size_t line_ = 0;
    std::size_t column_ = 0;
};

}  // namespace stand::scenario
