// The cgroupfs and procfs files the sampler and the box read
// (box/cgroup_text.hpp, box/cpu_list.hpp, sampler/pressure.hpp,
// sampler/proc_text.hpp), each read through StatFile
// (sampler/stat_file.hpp) from a memory file holding the input, as the
// sampler reads the kernel's files.
// Input: byte 0 = which key to look up with find_u64 / status_kb, the rest
// = the file's text.
#include "box/cgroup_text.hpp"
#include "box/cpu_list.hpp"
#include "fuzz_input.hpp"
#include "memory_file.hpp"
#include "sampler/pressure.hpp"
#include "sampler/proc_text.hpp"
#include "sampler/stat_file.hpp"

#include <string>

using stand::fuzz::check;
namespace box = stand::box;
namespace sampler = stand::sampler;

namespace {

// The keys the sampler looks up (sampler/cgroup_source.cpp, proc_tree_source.cpp).
constexpr std::string_view kKeys[] = {"anon", "file", "inactive_file", "shmem", "kernel", "max", "oom", "oom_kill",
                                      "usage_usec", "nr_periods", "nr_throttled", "throttled_usec",
                                      "throttled_time", "VmRSS:", "RssAnon:", "Threads:"};

// The text as StatFile reads it back from a file holding it.
std::string read_back(std::string_view text) {
    const stand::fuzz::MemoryFile memory(text);
    sampler::StatFile file(memory.path());
    const auto first = file.read();
    check(first.has_value(), "a readable file reads");
    std::string out(*first);
    const auto again = file.read();  // re-read from offset 0, as at every sample
    check(again.has_value() && *again == out, "a re-read gives the same text");
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    const std::string_view key = kKeys[in.byte() % std::size(kKeys)];
    const std::string text = read_back(in.rest());
    check(text == in.rest() || in.rest().size() >= (1U << 20), "StatFile reads the whole file (up to 1 MiB)");

    (void)box::parse_u64(text);
    (void)box::find_u64(text, key);
    check(box::count_lines(text) <= text.size(), "no more lines than bytes");
    (void)sampler::parse_pressure_some(text);
    (void)sampler::parse_proc_stat(text);
    (void)sampler::status_kb(text, key);
    if (auto cpus = box::parse_cpu_list(text)) {
        // The canonical form reads back as the same set.
        const auto again = box::parse_cpu_list(box::format_cpu_list(*cpus));
        check(again && *again == *cpus, "format_cpu_list round-trips");
    }
    return 0;
}
