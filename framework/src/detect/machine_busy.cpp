#include "detect/machine_busy.hpp"

#include "sampler/pressure.hpp"
#include "sampler/stat_file.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace stand::detect {
CpuTimes read_cpu_times() {
    std::ifstream in("/proc/stat");
    std::string cpu;
    unsigned long long v[10] = {0};
    in >> cpu;
    for (auto& x : v) in >> x;
    CpuTimes t;
    for (auto x : v) t.total += x;
    t.total -= v[8] + v[9];  // guest time is already counted in user
    t.idle = v[3] + v[4];
    t.steal = v[7];
    return t;
}

double steal_pct_between(const CpuTimes& a, const CpuTimes& b) {
    const double total = static_cast<double>(b.total - a.total);
    return total > 0 ? 100.0 * static_cast<double>(b.steal - a.steal) / total : 0;
}

boost::json::object MachineSnapshot::to_json() const {
    boost::json::object o{{"load1", load1}, {"cpus", cpus}, {"busy_pct", busy_pct}, {"steal_pct", steal_pct}};
    o["window_s"] = window_s;
    o["cpu_pressure_pct"] = cpu_pressure_pct ? boost::json::value(*cpu_pressure_pct) : boost::json::value(nullptr);
    o["cpu_pressure_avg10"] = cpu_pressure_avg10 ? boost::json::value(*cpu_pressure_avg10) : boost::json::value(nullptr);
    return o;
}

MachineSnapshot snapshot_machine(std::chrono::milliseconds window) {
    MachineSnapshot s;
    s.cpus = static_cast<unsigned>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
    std::ifstream("/proc/loadavg") >> s.load1;
    sampler::StatFile pressure_file("/proc/pressure/cpu");
    const auto pressure = [&] {
        const auto text = pressure_file.read();
        return text ? sampler::parse_pressure_some(*text) : sampler::Pressure{};
    };
    const auto t0 = std::chrono::steady_clock::now();
    const sampler::Pressure p0 = pressure();
    CpuTimes a = read_cpu_times();
    std::this_thread::sleep_for(window);
    CpuTimes b = read_cpu_times();
    const sampler::Pressure p1 = pressure();
    s.window_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (p0.some_total_us && p1.some_total_us && *p1.some_total_us >= *p0.some_total_us && s.window_s > 0)
        s.cpu_pressure_pct = 100.0 * static_cast<double>(*p1.some_total_us - *p0.some_total_us) / 1e6 / s.window_s;
    s.cpu_pressure_avg10 = p1.some_avg10;
    double total = static_cast<double>(b.total - a.total);
    if (total > 0) s.busy_pct = 100.0 * (total - static_cast<double>(b.idle - a.idle)) / total;
    s.steal_pct = steal_pct_between(a, b);
    return s;
}

std::vector<Finding> check_machine(const MachineSnapshot& s, const std::string& scope) {
    std::vector<Finding> found;
    char buf[200];
    if (s.busy_pct > 25) {
        std::snprintf(buf, sizeof(buf), "the CPUs were %.0f %% busy (load average %.2f on %u CPUs) before the repetition started",
                      s.busy_pct, s.load1, s.cpus);
        found.push_back({"machine-busy", scope, buf});
    }
    if (s.steal_pct > kStealDisturbsPct) {
        std::snprintf(buf, sizeof(buf), "%.1f %% of CPU time was stolen by the hypervisor before the repetition", s.steal_pct);
        found.push_back({"cpu-steal", scope, buf});
    }
    if (s.cpu_pressure_pct && *s.cpu_pressure_pct > 10) {
        std::snprintf(buf, sizeof(buf), "tasks waited for a CPU %.0f %% of the %.1f s before the repetition (CPU pressure)",
                      *s.cpu_pressure_pct, s.window_s);
        found.push_back({"machine-busy", scope, buf});
    }
    return found;
}

}  // namespace stand::detect
