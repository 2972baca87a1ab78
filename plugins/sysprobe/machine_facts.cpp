#include "machine_facts.hpp"

#include <stand/cpp/executable.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace stand_sysprobe {
namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::string cpu_model(const std::string& cpuinfo_path) {
    std::ifstream in(cpuinfo_path);
    std::string line, fallback;
    while (std::getline(in, line)) {
        auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string_view key = trimmed(std::string_view(line).substr(0, colon));
        std::string_view value = trimmed(std::string_view(line).substr(colon + 1));
        if (value.empty()) continue;
        if (key == "model name") return std::string(value);
        if (fallback.empty() && (key == "Model" || key == "Hardware")) fallback = value;
    }
    return fallback.empty() ? "unknown" : fallback;
}

unsigned online_cpus() {
    long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 1u;
}

std::optional<std::string> find_executable(const std::vector<std::string>& names, std::string_view search_path) {
    for (const auto& name : names)
        if (auto found = stand::cpp::find_on_path(name, search_path)) return found->string();
    return std::nullopt;
}

}  // namespace stand_sysprobe
