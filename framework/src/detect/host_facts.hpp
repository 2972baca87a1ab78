// What machine a run measured: CPU model, hypervisor, RAM, disks, OS and
// kernel, and the settings benchmarking guides check (detect/host_tuning.hpp:
// governor, boost, SMT, ASLR, huge pages), read from /proc, /sys and CPUID at
// the start of a run and kept in run.json, so numbers from two hosts are
// never compared blind.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <string_view>

namespace stand::detect {

boost::json::object collect_host_facts();

// The hypervisor from a CPUID 0x40000000 vendor signature ("KVMKVMKVM",
// "VMwareVMware", "Microsoft Hv", "XenVMMXenVMM", ...), as systemd-detect-virt names it.
std::string hypervisor_from_signature(std::string_view signature);

}  // namespace stand::detect
