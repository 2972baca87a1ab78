#include <stand/kits/panel/file_text.hpp>

#include <stand/cpp/error.hpp>

#include <fstream>
#include <sstream>

namespace stand_panel_kit {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string tail_text(const std::string& text, std::size_t bytes) {
    std::string tail = text.size() > bytes ? "..." + text.substr(text.size() - bytes) : text;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) tail.pop_back();
    for (char& c : tail)
        if (c == '\n' || c == '\r') c = ' ';
    return tail;
}

std::string tail_of(const fs::path& file, std::size_t bytes) { return tail_text(read_text(file), bytes); }

boost::json::object read_env_file(const fs::path& file, const std::string& what) {
    std::ifstream in(file);
    if (!in) throw stand::cpp::Error(STAND_E_NOT_FOUND, what + ": cannot read its env file " + file.string());
    boost::json::object env;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos || eq == first)
            throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, what + ": " + file.string() + ":" + std::to_string(number) +
                                                                  ": not KEY=VALUE");
        env[line.substr(first, eq - first)] = line.substr(eq + 1);
    }
    return env;
}

std::uintmax_t bytes_on_disk(const fs::path& p) {
    std::error_code ec;
    const auto st = fs::symlink_status(p, ec);
    if (ec) return 0;
    if (fs::is_regular_file(st)) return fs::file_size(p, ec);
    if (!fs::is_directory(st)) return 0;
    std::uintmax_t total = 0;
    for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
        if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
    return total;
}

}  // namespace stand_panel_kit
