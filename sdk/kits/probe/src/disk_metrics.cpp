// probe kit: the disk probes' metrics and facts (disk_metrics.hpp).
#include <stand/kits/probe/disk_metrics.hpp>

namespace stand_probe_kit {

namespace json = boost::json;

DiskMetrics disk_metrics(std::uint64_t bytes, std::uint64_t ios, double seconds, double lat_mean_ns, double cpu_s) {
    DiskMetrics m;
    const double bytes_s = static_cast<double>(bytes) / seconds;
    m.mb_s = bytes_s / 1e6;
    m.mib_s = bytes_s / 1048576.0;
    m.iops = static_cast<double>(ios) / seconds;
    m.lat_mean_us = lat_mean_ns / 1000.0;
    m.cpu_s = cpu_s;
    m.cpu_pct = 100.0 * cpu_s / seconds;
    m.cpu_us_per_io = cpu_s * 1e6 / static_cast<double>(ios);
    m.ios = ios;
    m.seconds = seconds;
    return m;
}

json::object metrics_json(const DiskMetrics& m, const DiskJobShape& shape) {
    json::object out{{"mb_s", m.mb_s}, {"mib_s", m.mib_s}, {"iops", m.iops}, {"lat_mean_us", m.lat_mean_us}};
    if (m.lat_max_us) out["lat_max_us"] = *m.lat_max_us;
    out["cpu_s"] = m.cpu_s;
    out["cpu_pct"] = m.cpu_pct;
    out["cpu_us_per_io"] = m.cpu_us_per_io;
    out["ios"] = m.ios;
    out["seconds"] = m.seconds;
    out["block_size"] = shape.block_size;
    out["queue_depth"] = shape.queue_depth;
    out["jobs"] = shape.jobs;
    out["size_mib"] = shape.size_mib;
    return out;
}

json::array latency_histogram(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& buckets) {
    json::array out;
    for (const auto& [value_ns, count] : buckets) out.push_back(json::array{value_ns, count});
    return out;
}

void add_test_file_facts(json::object& facts, const MountInfo& mount, const std::string& dir, const std::string& file) {
    facts["filesystem"] = mount.fs_type;
    facts["mount"] = mount.mount_point;
    facts["device"] = mount.source;
    facts["dir"] = dir;
    facts["file"] = file;
}

}  // namespace stand_probe_kit
