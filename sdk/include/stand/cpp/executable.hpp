// stand C++ helpers: finding a program a plugin runs, as execvp would.
//
// A plugin names its program in its config (a path or a bare name) and runs
// it through the host's stand.process/1, possibly in another working
// directory (a panel's working_dir): a relative path has to become absolute
// where the user wrote it, and a bare name has to be found on PATH before
// the plugin can say that it is missing, naming the file it looked at.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "error.hpp"

namespace stand::cpp {

// The PATH a child gets when the environment has none (glibc's default).
inline constexpr const char* kDefaultSearchPath = "/usr/local/bin:/usr/bin:/bin";

// True for a regular file (after symlinks) that this process may execute.
inline bool is_executable_file(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The first directory of `search_path` (colon-separated, as $PATH; an empty
// entry is the working directory) holding an executable `name`, joined to
// it; nullopt when none does.
inline std::optional<std::filesystem::path> find_on_path(std::string_view name, std::string_view search_path) {
    while (true) {
        const auto colon = search_path.find(':');
        const std::string dir(search_path.substr(0, colon));
        std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / std::string(name);
        if (is_executable_file(candidate)) return candidate;
        if (colon == std::string_view::npos) return std::nullopt;
        search_path.remove_prefix(colon + 1);
    }
}

// This process's $PATH, or kDefaultSearchPath without one.
inline std::string_view search_path() {
    const char* path = std::getenv("PATH");
    return path != nullptr ? std::string_view(path) : std::string_view(kDefaultSearchPath);
}

// Where `name` is, as an absolute path: a name with a '/' is a path,
// relative to `cwd` (the working directory of this process when `cwd` is
// empty), whether or not a file is there; a bare name is looked up on
// $PATH. A bare name found nowhere comes back as it was, so that the
// caller's "not found" names what the user wrote. Never throws for a
// missing file; filesystem::absolute's errors (no working directory) do.
inline std::filesystem::path resolve_executable(const std::string& name, const std::filesystem::path& cwd = {}) {
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) {
        std::filesystem::path p(name);
        if (p.is_relative() && !cwd.empty()) p = cwd / p;
        return std::filesystem::absolute(p).lexically_normal();
    }
    if (auto found = find_on_path(name, search_path())) return std::filesystem::absolute(*found).lexically_normal();
    return name;
}

// resolve_executable(), and an Error(STAND_E_NOT_FOUND) unless it names an
// executable file: "<name> is not in PATH (...)", "<path> does not exist",
// "<path> is not executable", each followed by "; <hint>" (how to install
// it, which config key names it) when a hint is given.
inline std::filesystem::path require_executable(const std::string& name, const std::string& hint,
                                                const std::filesystem::path& cwd = {}) {
    const std::string why_not_found = hint.empty() ? std::string() : "; " + hint;
    if (name.empty()) throw Error(STAND_E_NOT_FOUND, "no program named" + why_not_found);
    const std::filesystem::path p = resolve_executable(name, cwd);
    std::error_code ec;
    if (!p.is_absolute())
        throw Error(STAND_E_NOT_FOUND, "'" + name + "' is not in PATH (" + std::string(search_path()) + ")" + why_not_found);
    if (!std::filesystem::is_regular_file(p, ec))
        throw Error(STAND_E_NOT_FOUND, p.string() + (std::filesystem::exists(p, ec) ? " is not a file" : " does not exist") +
                                           why_not_found);
    if (::access(p.c_str(), X_OK) != 0) throw Error(STAND_E_NOT_FOUND, p.string() + " is not executable" + why_not_found);
    return p;
}

}  // namespace stand::cpp
