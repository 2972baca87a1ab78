// The host settings benchmarking guides check before measuring
// (google/benchmark's docs/reducing_variance.md, LLVM's Benchmarking tips):
// the CPU frequency governor, boost (turbo), SMT, ASLR and transparent huge
// pages, read from sysfs and procfs into run.json's host_facts. Each fact is
// the value as read with the file it came from, or "not visible: ..." naming
// what was absent (a VM's guest usually has no cpufreq: its host sets it).
#pragma once

#include <boost/json/object.hpp>

#include <filesystem>

namespace stand::detect {

namespace host_tuning_key {
inline constexpr const char* kCpuGovernor = "cpu_governor";
inline constexpr const char* kCpuBoost = "cpu_boost";
inline constexpr const char* kSmt = "smt";
inline constexpr const char* kAslr = "aslr";
inline constexpr const char* kTransparentHugepages = "transparent_hugepages";
}  // namespace host_tuning_key

// Every fact begins with this when its files are absent or unreadable.
inline constexpr const char* kNotVisible = "not visible";

// The five facts, read under `root` ("/" on the machine; a fake tree in tests).
// cpu_governor: "performance" when every CPU has the same one, else
//   "performance on cpu0-1; powersave on cpu2-3" (a CPU whose file could not be
//   read is "not readable on cpuN").
// cpu_boost: "on (FILE reads 1)" / "off (...)"; from cpufreq/boost, else
//   intel_pstate/no_turbo (inverted), else the per-CPU cpu*/cpufreq/boost of
//   amd-pstate ("partly on: on on cpu0, off on cpu1 (FILES)" when they differ).
// smt: "on (smt/control on, smt/active 1)", "off (...)".
// aslr: "2: full (...)", "1: conservative (...)", "0: off".
// transparent_hugepages: "enabled madvise, defrag madvise" (the bracketed values).
boost::json::object read_host_tuning(const std::filesystem::path& root);

}  // namespace stand::detect
