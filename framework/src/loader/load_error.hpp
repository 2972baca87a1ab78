// The loader's one exception type: a plugin file that is refused, and why.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace stand::loader {

// A refusal: what() is "<file>: <reason>".
class LoadError : public std::runtime_error {
public:
    LoadError(const std::filesystem::path& file, const std::string& reason)
        : std::runtime_error(file.string() + ": " + reason), file_(file), reason_(reason) {}
    const std::filesystem::path& file() const noexcept { return file_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    std::filesystem::path file_;
    std::string reason_;
};

}  // namespace stand::loader
