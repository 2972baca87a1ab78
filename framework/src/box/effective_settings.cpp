#include "box/effective_settings.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"
#include "box/cpu_list.hpp"

#include <cmath>

namespace stand::box {
namespace {

namespace fs = std::filesystem;

// v2 "max" or a number.
std::optional<std::uint64_t> v2_limit(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    if (*text == "max") return kUnlimited;
    return parse_u64(*text);
}

std::optional<std::uint64_t> v1_memory_limit(const fs::path& file) {
    auto v = parse_u64(read_value(file).value_or(""));
    if (v && *v >= v1_unlimited_bytes()) return kUnlimited;
    return v;
}

struct CpuMax {
    std::uint64_t quota;  // kUnlimited for none
    std::uint64_t period;
};

std::optional<CpuMax> read_cpu_max(const fs::path& dir, CgroupVersion version) {
    if (version == CgroupVersion::v2) {
        auto text = read_value(dir / "cpu.max");
        if (!text) return std::nullopt;
        auto space = text->find(' ');
        auto quota = v2_limit(text->substr(0, space));
        auto period = space == std::string::npos ? std::nullopt : parse_u64(text->substr(space + 1));
        if (!quota || !period) return std::nullopt;
        return CpuMax{*quota, *period};
    }
    auto quota = read_value(dir / "cpu.cfs_quota_us");
    auto period = parse_u64(read_value(dir / "cpu.cfs_period_us").value_or(""));
    if (!quota || !period) return std::nullopt;
    if (*quota == "-1") return CpuMax{kUnlimited, *period};
    auto q = parse_u64(*quota);
    if (!q) return std::nullopt;
    return CpuMax{*q, *period};
}

std::optional<std::uint64_t> read_memory_max(const fs::path& dir, CgroupVersion version) {
    return version == CgroupVersion::v2 ? v2_limit(read_value(dir / "memory.max"))
                                        : v1_memory_limit(dir / "memory.limit_in_bytes");
}

// The groups strictly between the hierarchy root and `dir`.
std::vector<fs::path> ancestors(const GroupPaths::Entry& e) {
    std::vector<fs::path> out;
    const auto root_len = e.root.string().size();
    for (fs::path p = e.dir.parent_path(); p.string().size() > root_len && p != e.root; p = p.parent_path())
        out.push_back(p);
    return out;
}

std::optional<std::string> canonical_list(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    auto set = parse_cpu_list(*text);
    return set ? format_cpu_list(*set) : *text;
}

boost::json::value limit_json(const std::optional<std::uint64_t>& v) {
    if (!v) return nullptr;
    if (*v == kUnlimited) return "max";
    return *v;
}

boost::json::value string_json(const std::optional<std::string>& v) {
    if (!v) return nullptr;
    return boost::json::value(*v);
}

void read_cpu(const GroupPaths& paths, EffectiveSettings& s) {
    const auto* e = paths.find("cpu");
    if (e == nullptr) return;
    if (auto cpu = read_cpu_max(e->dir, paths.version)) {
        s.cpu_quota_us = cpu->quota;
        s.cpu_period_us = cpu->period;
    }
    for (const auto& dir : ancestors(*e)) {
        auto cpu = read_cpu_max(dir, paths.version);
        if (!cpu || cpu->quota == kUnlimited || cpu->period == 0) continue;
        double v = static_cast<double>(cpu->quota) / static_cast<double>(cpu->period);
        if (!s.ancestor_vcpu || v < s.ancestor_vcpu->value) s.ancestor_vcpu = {dir.string(), v};
    }
}

void read_memory(const GroupPaths& paths, EffectiveSettings& s) {
    const auto* e = paths.find("memory");
    if (e == nullptr) return;
    s.memory_max = read_memory_max(e->dir, paths.version);
    if (paths.version == CgroupVersion::v2) {
        s.memory_high = v2_limit(read_value(e->dir / "memory.high"));
        s.swap_max = v2_limit(read_value(e->dir / "memory.swap.max"));
        if (!s.swap_max) s.notes.push_back("memory.swap.max missing: swap limit unknown");
    } else {
        auto memsw = v1_memory_limit(e->dir / "memory.memsw.limit_in_bytes");
        if (!memsw) {
            s.notes.push_back("no swap accounting (memory.memsw.* missing): swap limit unknown");
        } else if (*memsw == kUnlimited) {
            s.swap_max = kUnlimited;
        } else if (s.memory_max && *s.memory_max != kUnlimited && *memsw >= *s.memory_max) {
            s.swap_max = *memsw - *s.memory_max;
        } else {
            s.notes.push_back("memory.memsw.limit_in_bytes " + std::to_string(*memsw) +
                              " without a memory limit: swap limit not expressible");
        }
    }
    for (const auto& dir : ancestors(*e)) {
        auto m = read_memory_max(dir, paths.version);
        if (!m || *m == kUnlimited) continue;
        auto v = static_cast<double>(*m);
        if (!s.ancestor_memory_max || v < s.ancestor_memory_max->value) s.ancestor_memory_max = {dir.string(), v};
    }
}

void read_cpuset(const GroupPaths& paths, EffectiveSettings& s) {
    const auto* e = paths.find("cpuset");
    if (e == nullptr) return;
    const bool v2 = paths.version == CgroupVersion::v2;
    s.cpus = canonical_list(read_value(e->dir / "cpuset.cpus"));
    s.mems = canonical_list(read_value(e->dir / "cpuset.mems"));
    s.cpus_effective = canonical_list(read_value(e->dir / (v2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus")));
    s.mems_effective = canonical_list(read_value(e->dir / (v2 ? "cpuset.mems.effective" : "cpuset.effective_mems")));
    if (!s.cpus_effective && !v2 && s.cpus) {
        s.cpus_effective = s.cpus;  // old v1 kernels: cpuset.cpus is what applies
        s.notes.push_back("cpuset.effective_cpus missing: effective CPUs taken from cpuset.cpus");
    }
}

}  // namespace

std::optional<double> EffectiveSettings::vcpu() const {
    if (!cpu_quota_us || !cpu_period_us || *cpu_period_us == 0) return std::nullopt;
    if (*cpu_quota_us == kUnlimited) return std::numeric_limits<double>::infinity();
    return static_cast<double>(*cpu_quota_us) / static_cast<double>(*cpu_period_us);
}

EffectiveSettings read_effective(const GroupPaths& paths) {
    EffectiveSettings s;
    s.backend = paths.version == CgroupVersion::v2 ? "cgroup v2" : "cgroup v1";
    for (const auto& d : paths.dirs()) s.dirs.push_back(d.string());
    read_cpu(paths, s);
    read_memory(paths, s);
    read_cpuset(paths, s);
    if (const auto* e = paths.find("pids")) s.pids_max = v2_limit(read_value(e->dir / "pids.max"));
    if (auto online = online_cpus()) s.online_cpus = format_cpu_list(*online);
    return s;
}

boost::json::object EffectiveSettings::to_json() const {
    boost::json::object o;
    o["backend"] = backend;
    boost::json::array d;
    for (const auto& s : dirs) d.emplace_back(s);
    o["dirs"] = std::move(d);
    boost::json::value v = nullptr;
    if (auto x = vcpu()) v = std::isinf(*x) ? boost::json::value("max") : boost::json::value(*x);
    o["cpu"] = {{"quota_us", limit_json(cpu_quota_us)},
                {"period_us", cpu_period_us ? boost::json::value(*cpu_period_us) : boost::json::value(nullptr)},
                {"vcpu", v}};
    o["memory_max"] = limit_json(memory_max);
    o["memory_high"] = limit_json(memory_high);
    o["swap_max"] = limit_json(swap_max);
    o["pids_max"] = limit_json(pids_max);
    o["cpuset"] = {{"cpus", string_json(cpus)},
                   {"cpus_effective", string_json(cpus_effective)},
                   {"mems", string_json(mems)},
                   {"mems_effective", string_json(mems_effective)},
                   {"online_cpus", string_json(online_cpus)}};
    boost::json::object anc;
    if (ancestor_vcpu) anc["vcpu"] = {{"dir", ancestor_vcpu->dir}, {"value", ancestor_vcpu->value}};
    if (ancestor_memory_max)
        anc["memory_max"] = {{"dir", ancestor_memory_max->dir},
                             {"value", static_cast<std::uint64_t>(ancestor_memory_max->value)}};
    o["io"] = io ? boost::json::value(io->to_json()) : boost::json::value(nullptr);
    o["ancestor_limits"] = std::move(anc);
    boost::json::array n;
    for (const auto& s : notes) n.emplace_back(s);
    o["notes"] = std::move(n);
    return o;
}

}  // namespace stand::box
