#include "python_install.hpp"

#include <fstream>
#include <regex>

namespace stand_pasarguard {

namespace fs = std::filesystem;

namespace {

bool is_below(const fs::path& p, const fs::path& dir) {
    if (dir.empty()) return false;
    const auto rel = p.lexically_normal().lexically_relative(dir.lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

// "3.14" from pyvenv.cfg's "version = 3.14.10" (or "version_info"), else from a name like python3.14.
std::string major_minor(const fs::path& cfg, const fs::path& interpreter) {
    std::ifstream in(cfg);
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, std::regex(R"(^\s*version(_info)?\s*=\s*(\d+\.\d+))"))) return m[2].str();
    const std::string name = interpreter.filename().string();
    if (std::regex_match(name, m, std::regex(R"(python(\d+\.\d+))"))) return m[1].str();
    return {};
}

}  // namespace

std::vector<std::string> python_artifacts(const fs::path& python, const fs::path& skip_below) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path abs = fs::absolute(python, ec);
    const fs::path venv = abs.parent_path().parent_path();
    const fs::path cfg = venv / "pyvenv.cfg";
    const bool in_venv = fs::is_regular_file(cfg, ec);
    if (in_venv && !is_below(venv, skip_below)) out.push_back(venv.string());
    const fs::path real = fs::canonical(abs, ec);
    if (ec) return out;
    if (!in_venv || !is_below(real, venv)) {
        out.push_back(real.string());
        const std::string version = major_minor(cfg, real);
        const fs::path stdlib = real.parent_path().parent_path() / "lib" / ("python" + version);
        if (!version.empty() && fs::is_directory(stdlib, ec)) out.push_back(stdlib.string());
    }
    return out;
}

}  // namespace stand_pasarguard
