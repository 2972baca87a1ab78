#include "detect/host_tuning.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cpu_list.hpp"

#include <map>
#include <optional>
#include <string>

namespace stand::detect {
namespace {

namespace fs = std::filesystem;
using namespace host_tuning_key;

const fs::path kCpuDir = "sys/devices/system/cpu";

// A file under the root: absent, present but unreadable (value empty), or its trimmed text.
struct Read {
    bool present = false;
    std::optional<std::string> value;
};

Read read_under(const fs::path& root, const fs::path& relative) {
    std::error_code ec;
    const fs::path file = root / relative;
    if (!fs::exists(file, ec)) return {};
    return {true, box::read_value(file)};
}

// The path as the machine names it, whatever the root.
std::string shown(const fs::path& relative) { return "/" + relative.string(); }

std::string not_visible(const std::string& why) { return std::string(kNotVisible) + ": " + why; }

// value -> the CPUs whose cpuN/<file> reads it ("not readable" when it exists but cannot be read).
std::map<std::string, box::CpuSet> per_cpu_values(const fs::path& root, const fs::path& file) {
    std::map<std::string, box::CpuSet> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root / kCpuDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 4 || !name.starts_with("cpu") || name.find_first_not_of("0123456789", 3) != std::string::npos)
            continue;
        const Read r = read_under(root, kCpuDir / name / file);
        if (!r.present) continue;
        out[r.value && !r.value->empty() ? *r.value : "not readable"].insert(static_cast<unsigned>(std::stoul(name.substr(3))));
    }
    return out;
}

// "performance on cpu0-1; powersave on cpu2-3"
std::string by_cpus(const std::map<std::string, box::CpuSet>& values) {
    std::string out;
    for (const auto& [value, cpus] : values) out += (out.empty() ? "" : "; ") + value + " on cpu" + box::format_cpu_list(cpus);
    return out;
}

std::string governor(const fs::path& root) {
    const auto values = per_cpu_values(root, "cpufreq/scaling_governor");
    const std::string files = shown(kCpuDir / "cpu*/cpufreq/scaling_governor");
    if (values.empty()) return not_visible("no " + files + " (a VM's guest has none: its host sets the governor)");
    if (values.size() == 1 && values.begin()->first == "not readable") return not_visible(files + " could not be read");
    if (values.size() == 1) return values.begin()->first;
    return by_cpus(values);
}

// "on", "off" or "unknown" for a file where `on_value` means boost is on.
std::string boost_state(const std::string& value, const char* on_value, const char* off_value) {
    return value == on_value ? "on" : value == off_value ? "off" : "unknown";
}

std::string per_cpu_boost(const fs::path& root) {
    const auto values = per_cpu_values(root, "cpufreq/boost");
    const std::string files = shown(kCpuDir / "cpu*/cpufreq/boost");
    if (values.empty())
        return not_visible("no " + shown(kCpuDir / "cpufreq/boost") + ", " + shown(kCpuDir / "intel_pstate/no_turbo") +
                           " or " + files + " (a VM's guest has none: its host sets boost)");
    if (values.size() == 1 && values.begin()->first == "not readable") return not_visible(files + " could not be read");
    std::map<std::string, box::CpuSet> states;
    for (const auto& [value, cpus] : values) states[boost_state(value, "1", "0")].insert(cpus.begin(), cpus.end());
    if (values.size() == 1) return states.begin()->first + " (" + files + " reads " + values.begin()->first + " on every CPU)";
    std::string list;  // "cpu0 on; cpu1 off", boost on first
    for (const char* state : {"on", "off", "unknown"})
        if (auto it = states.find(state); it != states.end())
            list += (list.empty() ? "" : "; ") + ("cpu" + box::format_cpu_list(it->second)) + " " + state;
    return std::string(states.contains("on") ? "partly on: " : "mixed: ") + list + " (" + files + ")";
}

std::string boost(const fs::path& root) {
    struct Source {
        fs::path file;
        const char *on, *off;  // no_turbo is inverted
    };
    for (const Source& s : {Source{kCpuDir / "cpufreq/boost", "1", "0"}, Source{kCpuDir / "intel_pstate/no_turbo", "0", "1"}}) {
        const Read r = read_under(root, s.file);
        if (!r.present) continue;
        if (!r.value) return not_visible(shown(s.file) + " could not be read");
        return boost_state(*r.value, s.on, s.off) + " (" + shown(s.file) + " reads " + *r.value + ")";
    }
    return per_cpu_boost(root);
}

std::string smt(const fs::path& root) {
    const Read control = read_under(root, kCpuDir / "smt/control");
    const Read active = read_under(root, kCpuDir / "smt/active");
    if (!control.value && !active.value)
        return not_visible("no readable " + shown(kCpuDir / "smt/control") + " or " + shown(kCpuDir / "smt/active"));
    const std::string c = control.value.value_or("absent"), a = active.value.value_or("absent");
    std::string state = "unknown";
    if (a == "1" || (a == "absent" && c == "on")) state = "on";
    else if (a == "0" || c == "off" || c == "forceoff" || c == "notsupported" || c == "notimplemented") state = "off";
    return state + " (smt/control " + c + ", smt/active " + a + ")";
}

std::string aslr(const fs::path& root) {
    const fs::path file = "proc/sys/kernel/randomize_va_space";
    const Read r = read_under(root, file);
    if (!r.value) return not_visible((r.present ? shown(file) + " could not be read" : "no " + shown(file)));
    if (*r.value == "0") return "0: off";
    if (*r.value == "1") return "1: conservative (stack, mmap base, VDSO and shared libraries randomised; heap not)";
    if (*r.value == "2") return "2: full (stack, mmap base, VDSO, shared libraries and heap randomised)";
    return *r.value + ": unknown value of " + shown(file);
}

// "always [madvise] never" -> "madvise"
std::string bracketed(const std::string& text) {
    const auto open = text.find('['), close = text.find(']');
    if (open == std::string::npos || close == std::string::npos || close < open) return text;
    return text.substr(open + 1, close - open - 1);
}

std::string transparent_hugepages(const fs::path& root) {
    const fs::path dir = "sys/kernel/mm/transparent_hugepage";
    const Read enabled = read_under(root, dir / "enabled");
    if (!enabled.value) return not_visible("no readable " + shown(dir / "enabled"));
    const Read defrag = read_under(root, dir / "defrag");
    return "enabled " + bracketed(*enabled.value) + ", defrag " +
           (defrag.value ? bracketed(*defrag.value) : "not visible (no readable " + shown(dir / "defrag") + ")");
}

}  // namespace

boost::json::object read_host_tuning(const fs::path& root) {
    return {{kCpuGovernor, governor(root)},
            {kCpuBoost, boost(root)},
            {kSmt, smt(root)},
            {kAslr, aslr(root)},
            {kTransparentHugepages, transparent_hugepages(root)}};
}

}  // namespace stand::detect
