#include "box/io_limits.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_text.hpp"

#include <sstream>

namespace stand::box {
namespace {

namespace fs = std::filesystem;

struct V1File {
    const char* name;
    std::optional<std::uint64_t> IoLimit::*field;
};
constexpr V1File kV1Files[] = {{"blkio.throttle.read_iops_device", &IoLimit::read_iops},
                               {"blkio.throttle.write_iops_device", &IoLimit::write_iops},
                               {"blkio.throttle.read_bps_device", &IoLimit::read_bps},
                               {"blkio.throttle.write_bps_device", &IoLimit::write_bps}};

struct V2Key {
    const char* key;
    std::optional<std::uint64_t> IoLimit::*field;
};
constexpr V2Key kV2Keys[] = {
    {"riops", &IoLimit::read_iops}, {"wiops", &IoLimit::write_iops}, {"rbps", &IoLimit::read_bps}, {"wbps", &IoLimit::write_bps}};

std::string value_text(const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : "no limit"; }

}  // namespace

std::optional<std::uint64_t> v1_throttle_value(std::string_view text, std::string_view device) {
    std::istringstream in{std::string(text)};
    std::string dev;
    std::uint64_t value = 0;
    while (in >> dev >> value)
        if (dev == device) return value;
    return std::nullopt;
}

IoLimit v2_io_max(std::string_view text, std::string_view device) {
    IoLimit limit;
    limit.device = std::string(device);
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string dev;
        if (!(words >> dev) || dev != device) continue;
        for (std::string word; words >> word;) {
            const auto eq = word.find('=');
            if (eq == std::string::npos) continue;
            for (const auto& k : kV2Keys)
                if (word.compare(0, eq, k.key) == 0) limit.*(k.field) = parse_u64(word.substr(eq + 1));
        }
    }
    return limit;
}

void apply_io_limit(const GroupPaths& paths, const BoxPlan& plan) {
    if (!plan.io) return;
    const IoLimit& io = *plan.io;
    const bool v2 = paths.version == CgroupVersion::v2;
    const auto* e = paths.find(v2 ? "io" : "blkio");
    if (e == nullptr)
        throw BoxError("box '" + plan.name + "': an io limit is planned but the " + (v2 ? "io" : "blkio") +
                       " controller is not available");
    if (v2) {
        std::string line = io.device;
        for (const auto& k : kV2Keys)
            if (io.*(k.field)) line += " " + std::string(k.key) + "=" + std::to_string(*(io.*(k.field)));
        write_text(e->dir / "io.max", line);
        return;
    }
    for (const auto& f : kV1Files)
        if (io.*(f.field)) write_text(e->dir / f.name, io.device + " " + std::to_string(*(io.*(f.field))));
}

std::optional<IoLimit> read_io_limit(const GroupPaths& paths, const std::string& device) {
    const bool v2 = paths.version == CgroupVersion::v2;
    const auto* e = paths.find(v2 ? "io" : "blkio");
    if (e == nullptr) return std::nullopt;
    if (v2) return v2_io_max(read_text(e->dir / "io.max").value_or(""), device);
    IoLimit limit;
    limit.device = device;
    for (const auto& f : kV1Files) limit.*(f.field) = v1_throttle_value(read_text(e->dir / f.name).value_or(""), device);
    return limit;
}

std::string io_drift(const IoLimit& plan, const std::optional<IoLimit>& effective) {
    if (!effective) return "io: planned a limit on " + plan.device + ", effective unknown (no blkio/io controller)";
    std::string out;
    for (const auto& k : kV2Keys) {
        const auto& want = plan.*(k.field);
        const auto& have = (*effective).*(k.field);
        if (want != have)
            out += (out.empty() ? "io " + plan.device + ": " : "; ") + std::string(k.key) + " planned " + value_text(want) +
                   ", effective " + value_text(have);
    }
    return out;
}

}  // namespace stand::box
