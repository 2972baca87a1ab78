#include "detect/host_facts.hpp"

#include "detect/host_tuning.hpp"
#include "text/trim.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace stand::detect {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(const std::string& s) { return std::string(text::trim(s)); }

// The value of the first "key<spaces>: value" / "key=value" line.
std::string field(const std::string& text, std::string_view key, char sep) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with(key)) continue;
        auto pos = line.find(sep);
        if (pos == std::string::npos || trim(line.substr(0, pos)) != key) continue;
        std::string v = trim(line.substr(pos + 1));
        if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
        return v;
    }
    return "";
}

std::string hypervisor() {
    const std::string cpuinfo = read_file("/proc/cpuinfo");
    const std::string flags = field(cpuinfo, "flags", ':');
    if ((" " + flags + " ").find(" hypervisor ") == std::string::npos) {
        if (fs::exists("/proc/xen")) return "xen";
        return flags.empty() ? "unknown" : "none";
    }
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    __cpuid(0x40000000, a, b, c, d);
    char sig[13] = {};
    std::memcpy(sig, &b, 4);
    std::memcpy(sig + 4, &c, 4);
    std::memcpy(sig + 8, &d, 4);
    return hypervisor_from_signature(sig);
#else
    return "unknown (a hypervisor flag, no CPUID here)";
#endif
}

json::array disks() {
    json::array out;
    std::error_code ec;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator("/sys/block", ec)) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
        const std::string name = dir.filename().string();
        if (name.starts_with("loop") || name.starts_with("ram")) continue;
        const double sectors = std::atof(trim(read_file(dir / "size")).c_str());
        if (sectors <= 0) continue;
        char size[32];
        std::snprintf(size, sizeof size, "%.1f GiB", sectors * 512.0 / (1024.0 * 1024 * 1024));
        std::string text = name + " " + size + ", rotational flag " + trim(read_file(dir / "queue" / "rotational"));
        if (auto model = trim(read_file(dir / "device" / "model")); !model.empty()) text += ", model " + model;
        out.emplace_back(text);
    }
    return out;
}

}  // namespace

std::string hypervisor_from_signature(std::string_view s) {
    struct Known {
        std::string_view signature, name;
    };
    static constexpr Known kKnown[] = {{"KVMKVMKVM", "kvm"},       {"TCGTCGTCGTCG", "qemu"},    {"VMwareVMware", "vmware"},
                                       {"Microsoft Hv", "microsoft (hyperv)"}, {"XenVMMXenVMM", "xen"}, {"bhyve bhyve ", "bhyve"},
                                       {"ACRNACRNACRN", "acrn"},   {"QNXQVMBSQG", "qnx"},       {" lrpepyh  vr", "parallels"},
                                       {"VBoxVBoxVBox", "oracle"}, {"SRESRESRESRE", "sre"},     {"Linux KVM Hv", "kvm"}};
    while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
    for (const auto& k : kKnown)
        if (s.starts_with(k.signature)) return std::string(k.name);
    return s.empty() ? "unknown (a hypervisor flag, no CPUID signature)" : "unknown (CPUID signature \"" + std::string(s) + "\")";
}

json::object collect_host_facts() {
    json::object f;
    const std::string cpuinfo = read_file("/proc/cpuinfo");
    f["cpu_model"] = field(cpuinfo, "model name", ':');
    f["cpus_online"] = static_cast<std::int64_t>(::sysconf(_SC_NPROCESSORS_ONLN));
    f["hypervisor"] = hypervisor();
    const std::string meminfo = read_file("/proc/meminfo");
    f["ram_mib"] = std::atoll(field(meminfo, "MemTotal", ':').c_str()) / 1024;
    f["disks"] = disks();
    f["os"] = field(read_file("/etc/os-release"), "PRETTY_NAME", '=');
    utsname u{};
    if (::uname(&u) == 0) {
        f["kernel"] = std::string(u.release);
        f["arch"] = std::string(u.machine);
        f["hostname"] = std::string(u.nodename);
    }
    f["medium_type"] = "not verifiable from inside a VM: a virtual disk hides the medium and its rotational flag is unreliable";
    for (auto& [key, value] : read_host_tuning("/")) f[key] = std::move(value);
    return f;
}

}  // namespace stand::detect
