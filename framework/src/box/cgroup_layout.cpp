#include "box/cgroup_layout.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "text/trim.hpp"

#include <algorithm>
#include <cerrno>
#include <unistd.h>

namespace stand::box {
namespace {

namespace fs = std::filesystem;

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    while (!s.empty()) {
        auto at = s.find(sep);
        auto part = s.substr(0, at);
        if (!part.empty()) out.push_back(part);
        if (at == std::string_view::npos) break;
        s.remove_prefix(at + 1);
    }
    return out;
}

// /proc/self/mounts escapes space, tab, newline and backslash as \ooo.
std::string unescape_mount_path(std::string_view s) {
    const auto oct = [](char c) { return c >= '0' && c <= '7'; };
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && oct(s[i + 1]) && oct(s[i + 2]) && oct(s[i + 3])) {
            out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::vector<std::string> words(const std::optional<std::string>& text) {
    std::vector<std::string> out;
    if (!text) return out;
    for (auto w : split(*text, ' '))
        if (auto t = text::trim(w); !t.empty()) out.emplace_back(t);
    return out;
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
    return out.empty() ? "none" : out;
}

// The root has no memory.swap.* files: look at a child group that has the
// memory controller. Without one, assume yes (Box notes a missing file).
bool v2_swap_accounting(const fs::path& root) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root, ec)) {
        if (!e.is_directory(ec) || !fs::exists(e.path() / "memory.max", ec)) continue;
        return fs::exists(e.path() / "memory.swap.max", ec);
    }
    return true;
}

}  // namespace

CgroupLayout detect_cgroup_layout(std::string_view mounts, std::string_view pid1_comm) {
    CgroupLayout l;
    l.pid1 = std::string(text::trim(pid1_comm));
    l.systemd_pid1 = l.pid1 == "systemd";

    for (auto line : split(mounts, '\n')) {
        auto f = split(line, ' ');
        if (f.size() < 4) continue;
        fs::path dir = unescape_mount_path(f[1]);
        if (f[2] == "cgroup2" && !l.v2_root) {
            l.v2_root = dir;
        } else if (f[2] == "cgroup") {
            bool ours = false;
            for (auto opt : split(f[3], ','))
                for (auto c : kV1Controllers)
                    if (opt == c) {
                        ours = true;
                        if (!l.v1.count(std::string(c))) l.v1.emplace(std::string(c), dir);
                    }
            if (!ours && std::find(l.v1_foreign.begin(), l.v1_foreign.end(), dir) == l.v1_foreign.end())
                l.v1_foreign.push_back(dir);
        }
    }

    if (l.v2_root) {
        l.v2_available = words(read_value(*l.v2_root / "cgroup.controllers"));
        l.v2_enabled = words(read_value(*l.v2_root / "cgroup.subtree_control"));
    }
    const bool v2_usable = l.v2_root && contains(l.v2_enabled, "cpu") && contains(l.v2_enabled, "memory");
    if (l.v2_root && !v2_usable) {
        l.problems.push_back("cgroup v2 at " + l.v2_root->string() + " has cpu/memory not enabled in " +
                             "cgroup.subtree_control (enabled: " + joined(l.v2_enabled) +
                             "; available: " + joined(l.v2_available) + ")");
    }
    if (v2_usable) {
        l.backend = CgroupVersion::v2;
        l.v1.clear();
        if (::access(l.v2_root->c_str(), W_OK) != 0)
            l.problems.push_back(l.v2_root->string() + " is not writable: " + errno_text(errno));
        l.swap_accounting = v2_swap_accounting(*l.v2_root);
    } else if (l.v1.count("cpu") || l.v1.count("memory")) {
        l.backend = CgroupVersion::v1;
        for (const auto& [c, dir] : l.v1)
            if (::access(dir.c_str(), W_OK) != 0)
                l.problems.push_back("v1 " + c + " hierarchy " + dir.string() + " is not writable: " + errno_text(errno));
        if (auto m = l.v1.find("memory"); m != l.v1.end())
            l.swap_accounting = ::access((m->second / "memory.memsw.limit_in_bytes").c_str(), F_OK) == 0;
    } else {
        l.problems.push_back("no cgroup v1 cpu/memory hierarchy mounted");
    }
    return l;
}

CgroupLayout detect_cgroup_layout() {
    return detect_cgroup_layout(read_text("/proc/self/mounts").value_or(""),
                                read_text("/proc/1/comm").value_or("?"));
}

std::optional<fs::path> CgroupLayout::root_of(std::string_view controller) const {
    if (backend == CgroupVersion::v2) return v2_root;
    if (auto it = v1.find(std::string(controller)); it != v1.end()) return it->second;
    return std::nullopt;
}

std::string CgroupLayout::describe() const {
    std::string out;
    if (backend == CgroupVersion::v2) {
        out = "cgroup v2 at " + v2_root->string() + " (enabled: " + joined(v2_enabled) + ")";
    } else if (backend == CgroupVersion::v1) {
        out = "cgroup v1:";
        for (auto c : kV1Controllers) {
            auto it = v1.find(std::string(c));
            out += std::string(" ") + std::string(c) + "=" + (it == v1.end() ? "missing" : it->second.string());
        }
        out += swap_accounting ? "; swap accounting on" : "; no swap accounting (memory.memsw.* missing)";
    } else {
        out = "no usable cgroups";
    }
    for (const auto& p : problems) out += "; " + p;
    out += systemd_pid1 ? "; systemd is PID 1 (transient-slice backend not built: boxes use cgroupfs directly)"
                        : "; systemd not PID 1 here (PID 1 is '" + pid1 + "'): no transient-slice backend";
    return out;
}

boost::json::object CgroupLayout::to_json() const {
    boost::json::object o;
    o["backend"] = backend == CgroupVersion::v2 ? "cgroup v2" : backend == CgroupVersion::v1 ? "cgroup v1" : "none";
    if (v2_root) {
        boost::json::array avail, enabled;
        for (const auto& c : v2_available) avail.emplace_back(c);
        for (const auto& c : v2_enabled) enabled.emplace_back(c);
        o["v2"] = {{"root", v2_root->string()}, {"available", avail}, {"enabled", enabled}};
    }
    boost::json::object v1o;
    for (const auto& [c, dir] : v1) v1o[c] = dir.string();
    o["v1"] = std::move(v1o);
    o["swap_accounting"] = swap_accounting;
    o["pid1"] = pid1;
    o["systemd_pid1"] = systemd_pid1;
    boost::json::array probs;
    for (const auto& p : problems) probs.emplace_back(p);
    o["problems"] = std::move(probs);
    o["description"] = describe();
    return o;
}

}  // namespace stand::box
