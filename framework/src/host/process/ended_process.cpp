#include "host/process/ended_process.hpp"

#include <csignal>
#include <cstring>
#include <fstream>

namespace stand::host {

namespace json = boost::json;

json::object to_json(const EndedProcess& p) {
    return {{"name", p.name}, {"pid", p.pid}, {"signaled", p.signaled}, {"code", p.code}, {"output", p.output}};
}

EndedProcess ended_process_from_json(const json::object& o) {
    EndedProcess p;
    p.name = std::string(o.at("name").as_string());
    p.pid = o.at("pid").to_number<std::int64_t>();
    p.signaled = o.at("signaled").as_bool();
    p.code = o.at("code").to_number<int>();
    p.output = std::string(o.at("output").as_string());
    return p;
}

std::vector<EndedProcess> ended_processes_from_json(const json::value& v) {
    std::vector<EndedProcess> out;
    for (const auto& e : v.as_array()) out.push_back(ended_process_from_json(e.as_object()));
    return out;
}

namespace {

std::string log_tail(const std::string& path, std::size_t max_lines, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "(unreadable)";
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    const std::size_t from = size > max_bytes ? size - max_bytes : 0;
    in.seekg(static_cast<std::streamoff>(from));
    std::string text(size - from, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.empty()) return "(empty)";
    std::size_t start = 0, breaks = 0;
    for (std::size_t i = text.size(); i > 0; --i)
        if (text[i - 1] == '\n' && ++breaks == max_lines) {
            start = i;
            break;
        }
    std::string tail = text.substr(start);
    if (start > 0 || from > 0) tail = "...\n" + tail;
    return tail;
}

}  // namespace

std::string describe_exit(const EndedProcess& p, std::size_t max_lines, std::size_t max_bytes) {
    std::string how = p.signaled ? "was killed by signal " + std::to_string(p.code) +
                                       (sigabbrev_np(p.code) ? std::string(" (SIG") + sigabbrev_np(p.code) + ")" : "")
                                 : "exited with status " + std::to_string(p.code);
    return p.name + " (pid " + std::to_string(p.pid) + ") " + how + "; the end of its log " + p.output + ":\n" +
           log_tail(p.output, max_lines, max_bytes);
}

}  // namespace stand::host
