// What a box should be: its limits, each optional (absent = no limit, and
// for the cpuset: all online CPUs).
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace stand::box {

// Throttling of one disk (cgroup v1 blkio.throttle.*, v2 io.max).
struct IoLimit {
    std::string path;    // the directory the limit was asked for (reports)
    std::string device;  // "254:0": the whole disk under path
    std::optional<std::uint64_t> read_iops{}, write_iops{}, read_bps{}, write_bps{};

    boost::json::object to_json() const;
    friend bool operator==(const IoLimit&, const IoLimit&) = default;
};

struct BoxPlan {
    static constexpr std::uint64_t kCpuPeriodUs = 100000;  // 100 ms

    std::string name{};                         // "measured", "client": [A-Za-z0-9_-]
    std::optional<double> vcpu{};               // quota = vcpu x period
    std::optional<std::uint64_t> memory_max{};  // bytes
    std::optional<std::uint64_t> swap_max{};    // bytes (v1: memsw = memory_max + swap_max)
    std::optional<std::string> cpuset{};        // "0", "0-1", "0,2"
    std::optional<IoLimit> io{};

    std::optional<std::uint64_t> quota_us() const;  // from vcpu
    boost::json::object to_json() const;
};

// Throws BoxError naming the bad field (name syntax, vcpu range, cpuset syntax).
void validate(const BoxPlan& plan);

}  // namespace stand::box
