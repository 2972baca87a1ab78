// mem-read / mem-write: sysbench memory, sequential, MiB/sec. The run ends
// when total_mib has been transferred (sysbench's --memory-total-size) or
// at duration_s (sysbench's --time), whichever comes first.
#include <memory>
#include <vector>

#include "jobs.hpp"
#include "memory_event.hpp"

namespace stand_sysprobe {
namespace {

// sysbench's size syntax: "1M", "10G", "512K".
std::string sysbench_size(std::uint64_t bytes) {
    if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "G";
    if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "M";
    return std::to_string(bytes >> 10) + "K";
}

}  // namespace

JobOutput run_memory_job(const std::string& job_id, const MemorySettings& s, const Control& control) {
    std::vector<std::unique_ptr<MemoryBlock>> blocks;
    blocks.push_back(std::make_unique<MemoryBlock>(s.block_bytes));
    for (unsigned i = 1; i < s.threads && !s.shared_buffer; ++i) blocks.push_back(std::make_unique<MemoryBlock>(s.block_bytes));
    std::vector<std::uint64_t> last_read(s.threads, 0);

    TimedRunSpec spec;
    spec.threads = s.threads;
    spec.duration = std::chrono::seconds(s.duration_s);
    spec.events_per_thread = s.total_bytes / s.block_bytes / s.threads;
    const auto r = run_timed(
        spec,
        [&](unsigned i) -> EventFn {
            MemoryBlock* block = blocks[s.shared_buffer ? 0 : i].get();
            if (s.write) return [block, value = std::uint64_t{i}] { write_block(*block, value); };
            return [block, sink = &last_read[i]] { *sink = read_block(*block); };
        },
        control, s.write ? "sysbench memory writes" : "sysbench memory reads");
    throw_if_cancelled(job_id, r);

    const double transferred_mib = static_cast<double>(r.events) * static_cast<double>(s.block_bytes) / (1 << 20);
    JobOutput out;
    out.metrics = {{"mib_s", mib_per_second(r.events, s.block_bytes, r.seconds)},
                   {"threads", s.threads},
                   {"block_size_kib", s.block_bytes / 1024},
                   {"seconds", r.seconds},
                   {"transferred_mib", transferred_mib}};
    out.facts = {{"tool", "sysbench memory --memory-block-size=" + sysbench_size(s.block_bytes) +
                              " --memory-total-size=" + sysbench_size(s.total_bytes) +
                              " --memory-oper=" + (s.write ? "write" : "read") +
                              " --memory-scope=" + (s.shared_buffer ? "global" : "local") +
                              " --threads=" + std::to_string(s.threads) + " --time=" + std::to_string(s.duration_s) + " run"}};
    if (r.events < spec.events_per_thread * s.threads)
        out.notes.emplace_back("stopped at duration_s = " + std::to_string(s.duration_s) + " s after " +
                               std::to_string(static_cast<std::uint64_t>(transferred_mib)) + " of " +
                               std::to_string(s.total_bytes >> 20) + " MiB (sysbench stops at --time likewise)");
    return out;
}

}  // namespace stand_sysprobe
