// cpu-1t / cpu-all: sysbench cpu, time-based, events per second of all threads.
#include <stand/cpp/error.hpp>

#include <vector>

#include "jobs.hpp"
#include "prime_event.hpp"

namespace stand_sysprobe {

JobOutput run_cpu_job(const std::string& job_id, const CpuSettings& s, const Control& control) {
    // Every event must find the same primes; the sums prove the work was done.
    const std::uint64_t primes_per_event = sysbench_cpu_event(s.max_prime);
    std::vector<std::uint64_t> primes_found(s.threads, 0);
    TimedRunSpec spec;
    spec.threads = s.threads;
    spec.duration = std::chrono::seconds(s.duration_s);
    const auto r = run_timed(
        spec,
        [&](unsigned i) -> EventFn {
            return [limit = s.max_prime, sum = &primes_found[i]] { *sum += sysbench_cpu_event(limit); };
        },
        control, "sysbench cpu events");
    throw_if_cancelled(job_id, r);
    std::uint64_t total = 0;
    for (auto n : primes_found) total += n;
    if (r.events == 0 || total != r.events * primes_per_event)
        throw stand::cpp::Error(STAND_E_INTERNAL, "sysprobe: " + job_id + ": " + std::to_string(r.events) +
                                                      " events found " + std::to_string(total) + " primes, expected " +
                                                      std::to_string(primes_per_event) + " each");
    JobOutput out;
    out.metrics = {{"events_s", static_cast<double>(r.events) / r.seconds},
                   {"threads", s.threads},
                   {"max_prime", s.max_prime},
                   {"seconds", r.seconds},
                   {"events", r.events}};
    out.facts = {{"tool", "sysbench cpu --cpu-max-prime=" + std::to_string(s.max_prime) +
                              " --threads=" + std::to_string(s.threads) + " --time=" + std::to_string(s.duration_s) + " run"},
                 {"primes_per_event", primes_per_event}};
    return out;
}

}  // namespace stand_sysprobe
