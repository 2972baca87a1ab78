// What the system probe reads from outside: `7z b` output
// (sevenzip_output.hpp) and /proc/cpuinfo (machine_facts.hpp, read from a
// file holding the input). A 7z output without a usable "Tot:" line is
// refused with std::runtime_error; nothing else may escape.
#include "fuzz_input.hpp"
#include "machine_facts.hpp"
#include "memory_file.hpp"
#include "sevenzip_output.hpp"

#include <cmath>
#include <stdexcept>

using stand::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto bench = stand_sysprobe::parse_sevenzip_bench(text);
        check(bench.benchmark_threads >= 0, "a thread count is not negative");
    } catch (const std::runtime_error& e) {
        check(std::string_view(e.what()).find("Tot:") != std::string_view::npos, "a refusal names the Tot: line");
    }
    (void)stand_sysprobe::sevenzip_version_of(text);
    const stand::fuzz::MemoryFile cpuinfo(text);
    check(!stand_sysprobe::cpu_model(cpuinfo.path()).empty(), "a CPU model is never empty");
    return 0;
}
