#include "box/cpu_placement.hpp"

#include <stdexcept>

namespace stand::box {

boost::json::object CpuPlacement::to_json() const {
    return {{"measured", format_cpu_list(measured)},
            {"backend", format_cpu_list(backend)},
            {"generator", format_cpu_list(generator)},
            {"note", note}};
}

CpuPlacement place_on(const CpuSet& online) {
    if (online.empty()) throw std::invalid_argument("CPU placement: no online CPUs");
    std::vector<unsigned> cpus(online.begin(), online.end());
    CpuPlacement p;
    if (cpus.size() == 1) {
        p.measured = p.backend = p.generator = {cpus[0]};
        p.note = "one CPU: the system, the backend and the generator share CPU " + std::to_string(cpus[0]);
    } else if (cpus.size() == 2) {
        p.measured = {cpus[0]};
        p.backend = p.generator = {cpus[1]};
        p.note = "two CPUs: the system on CPU " + std::to_string(cpus[0]) + ", the backend and the generator share CPU " +
                 std::to_string(cpus[1]);
    } else {
        p.measured = {cpus[0]};
        p.backend = {cpus[1]};
        p.generator = CpuSet(cpus.begin() + 2, cpus.end());
        p.note = "disjoint: system, backend and generator each on their own CPUs";
    }
    return p;
}

}  // namespace stand::box
