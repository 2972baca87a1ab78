#include "sampler/sample_csv.hpp"

#include <cstdio>

namespace stand::sampler {

std::string samples_csv_header() {
    std::string h = "t_s";
    for (const auto& f : kGauges) h += "," + std::string(f.name);
    for (const auto& f : kCounters) h += "," + std::string(f.name);
    for (const auto& p : kPressures) h += "," + std::string(p.name) + "_some_avg10," + std::string(p.name) + "_some_total_us";
    return h;
}

void write_samples_csv(std::ostream& out, const std::vector<Sample>& samples, Clock::time_point epoch) {
    out << samples_csv_header() << '\n';
    char buf[32];
    for (const auto& s : samples) {
        std::snprintf(buf, sizeof buf, "%.6f", std::chrono::duration<double>(s.t - epoch).count());
        out << buf;
        auto cell = [&](const std::optional<std::uint64_t>& v) {
            out << ',';
            if (v) out << *v;
        };
        for (const auto& f : kGauges) cell(s.*(f.member));
        for (const auto& f : kCounters) cell(s.*(f.member));
        for (const auto& p : kPressures) {
            const Pressure& pr = s.*(p.member);
            out << ',';
            if (pr.some_avg10) {
                std::snprintf(buf, sizeof buf, "%.2f", *pr.some_avg10);
                out << buf;
            }
            cell(pr.some_total_us);
        }
        out << '\n';
    }
}

}  // namespace stand::sampler
