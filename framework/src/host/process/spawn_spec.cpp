#include "host/process/spawn_spec.hpp"

#include <stand/cpp/error.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string_view>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

extern char** environ;

namespace stand::host {
namespace {

using stand::cpp::Error;
namespace json = boost::json;

constexpr std::array<std::string_view, 8> kKeys = {"argv", "env",    "clear_env",         "cwd",
                                                   "box",  "output", "new_process_group", "user"};
constexpr const char* kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

[[noreturn]] void invalid(const std::string& message) {
    throw Error(STAND_E_INVALID_ARGUMENT, "spawn spec: " + message);
}

// execve takes C strings: an embedded NUL would silently cut the value.
std::string checked_string(const json::value& v, const std::string& what) {
    if (!v.is_string()) invalid(what + " must be a string");
    std::string s(v.get_string());
    if (s.find('\0') != std::string::npos) invalid(what + " contains a NUL byte");
    return s;
}

bool flag(const json::object& spec, const char* key, bool fallback) {
    auto it = spec.find(key);
    if (it == spec.end()) return fallback;
    if (!it->value().is_bool()) invalid(std::string("'") + key + "' must be a boolean");
    return it->value().get_bool();
}

std::vector<std::string> parse_argv(const json::object& spec) {
    auto it = spec.find("argv");
    if (it == spec.end()) invalid("'argv' is required");
    if (!it->value().is_array() || it->value().get_array().empty())
        invalid("'argv' must be a non-empty array of strings");
    std::vector<std::string> argv;
    for (const auto& v : it->value().get_array()) argv.push_back(checked_string(v, "an 'argv' element"));
    if (argv[0].empty()) invalid("argv[0] is empty");
    return argv;
}

std::string_view env_name(std::string_view entry) { return entry.substr(0, entry.find('=')); }

std::vector<std::string> build_env(const json::object& spec) {
    std::vector<std::string> env;
    if (!flag(spec, "clear_env", false))
        for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
    auto it = spec.find("env");
    if (it == spec.end()) return env;
    if (!it->value().is_object()) invalid("'env' must be an object of strings");
    for (const auto& [key, value] : it->value().get_object()) {
        std::string name(key);
        if (name.empty() || name.find('=') != std::string::npos || name.find('\0') != std::string::npos)
            invalid("bad environment variable name '" + name + "'");
        std::string entry = name + "=" + checked_string(value, "env '" + name + "'");
        auto same = std::find_if(env.begin(), env.end(), [&](const std::string& e) { return env_name(e) == name; });
        if (same != env.end())
            *same = std::move(entry);
        else
            env.push_back(std::move(entry));
    }
    return env;
}

std::optional<std::filesystem::path> parse_cwd(const json::object& spec) {
    auto it = spec.find("cwd");
    if (it == spec.end()) return std::nullopt;
    std::string cwd = checked_string(it->value(), "'cwd'");
    if (cwd.empty()) invalid("'cwd' is empty");
    struct stat st {};
    if (::stat(cwd.c_str(), &st) != 0) {
        int err = errno;
        throw Error(err == ENOENT ? STAND_E_NOT_FOUND : STAND_E_INVALID_ARGUMENT,
                    "cwd " + cwd + ": " + std::generic_category().message(err));
    }
    if (!S_ISDIR(st.st_mode)) invalid("cwd " + cwd + " is not a directory");
    return cwd;
}

// Relative paths are resolved after the child's chdir, so check them there too.
std::filesystem::path in_child_cwd(const std::filesystem::path& p, const std::optional<std::filesystem::path>& cwd) {
    return (p.is_relative() && cwd) ? *cwd / p : p;
}

bool is_executable_file(const std::filesystem::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The PATH the child will see decides where argv[0] is looked up, as execvp would.
std::string resolve_executable(const std::string& name, const std::vector<std::string>& env,
                               const std::optional<std::filesystem::path>& cwd) {
    if (name.find('/') != std::string::npos) {
        auto path = in_child_cwd(name, cwd);
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0 && errno == ENOENT)
            throw Error(STAND_E_NOT_FOUND, "executable not found: " + path.string());
        return path.string();
    }
    std::string search = kDefaultPath;
    for (const auto& e : env)
        if (env_name(e) == "PATH") search = e.substr(5);
    std::string_view rest = search;
    while (true) {
        auto colon = rest.find(':');
        std::string dir(rest.substr(0, colon));
        auto candidate = in_child_cwd(std::filesystem::path(dir.empty() ? "." : dir) / name, cwd);
        if (is_executable_file(candidate)) return candidate.string();
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
    }
    throw Error(STAND_E_NOT_FOUND, "executable '" + name + "' not found in PATH " + search);
}

std::optional<RunAs> parse_user(const json::object& spec) {
    auto it = spec.find("user");
    if (it == spec.end()) return std::nullopt;
    RunAs who;
    who.name = checked_string(it->value(), "'user'");
    if (who.name.empty()) invalid("'user' is empty");
    std::vector<char> buf(16384);
    passwd pw{};
    passwd* found = nullptr;
    const int err = ::getpwnam_r(who.name.c_str(), &pw, buf.data(), buf.size(), &found);
    if (found == nullptr)
        throw Error(err == 0 ? STAND_E_NOT_FOUND : STAND_E_IO,
                    "user '" + who.name + "': " + (err == 0 ? std::string("no such user") : std::generic_category().message(err)));
    who.uid = pw.pw_uid;
    who.gid = pw.pw_gid;
    int count = 32;
    who.groups.resize(static_cast<std::size_t>(count));
    while (::getgrouplist(who.name.c_str(), who.gid, who.groups.data(), &count) < 0)
        who.groups.resize(static_cast<std::size_t>(count));
    who.groups.resize(static_cast<std::size_t>(count));
    return who;
}

std::vector<std::filesystem::path> resolve_box(const json::object& spec, const BoxResolver& boxes) {
    auto it = spec.find("box");
    if (it == spec.end()) return {};
    std::string box = checked_string(it->value(), "'box'");
    if (!boxes) invalid("unknown box '" + box + "' (this host has no boxes)");
    return boxes(box);
}

// "${stand.box.NAME}" in argv and env values becomes the box's cgroup path
// below the hierarchy root ("/stand/<run group>/NAME"), what
// `docker run --cgroup-parent` takes with the cgroupfs driver.
constexpr std::string_view kBoxToken = "${stand.box.";

std::string cgroup_parent_of(const std::string& box, const BoxResolver& boxes) {
    if (!boxes) invalid("${stand.box." + box + "}: this host has no boxes");
    for (const auto& dir : boxes(box)) {
        const std::string d = dir.string();
        if (auto at = d.find("/stand/"); at != std::string::npos) return d.substr(at);
    }
    invalid("${stand.box." + box + "}: the box has no group under /stand/");
}

std::string expand_box_tokens(std::string text, const BoxResolver& boxes) {
    for (std::size_t at = text.find(kBoxToken); at != std::string::npos; at = text.find(kBoxToken, at)) {
        auto end = text.find('}', at);
        if (end == std::string::npos) invalid("unterminated ${stand.box.NAME} in '" + text + "'");
        const std::string name = text.substr(at + kBoxToken.size(), end - at - kBoxToken.size());
        const std::string value = cgroup_parent_of(name, boxes);
        text.replace(at, end + 1 - at, value);
        at += value.size();
    }
    return text;
}

}  // namespace

SpawnPlan parse_spawn_spec(const json::object& spec, const BoxResolver& boxes) {
    for (const auto& kv : spec)
        if (std::find(kKeys.begin(), kKeys.end(), std::string_view(kv.key())) == kKeys.end())
            invalid("unknown key '" + std::string(kv.key()) + "'");
    SpawnPlan plan;
    plan.argv = parse_argv(spec);
    plan.env = build_env(spec);
    for (auto& a : plan.argv) a = expand_box_tokens(std::move(a), boxes);
    for (auto& e : plan.env)
        if (e.find(kBoxToken) != std::string::npos) e = expand_box_tokens(std::move(e), boxes);
    plan.cwd = parse_cwd(spec);
    plan.executable = resolve_executable(plan.argv[0], plan.env, plan.cwd);
    plan.cgroups = resolve_box(spec, boxes);
    if (auto it = spec.find("output"); it != spec.end()) {
        std::string out = checked_string(it->value(), "'output'");
        if (out.empty()) invalid("'output' is empty");
        plan.output = out;
    }
    plan.new_process_group = flag(spec, "new_process_group", true);
    plan.run_as = parse_user(spec);
    return plan;
}

}  // namespace stand::host
