// One event of `sysbench cpu` (src/tests/cpu/sb_cpu.c): every c in
// [3, max_prime) is tested by trial division with 64-bit unsigned divisors
// 2, 3, ... while divisor <= sqrt(c) (as a double); the primes found are
// counted. 2 is never tested, so the count is pi(max_prime - 1) - 1.
#pragma once

#include <cstdint>

namespace stand_sysprobe {

// Returns the number of primes found; the caller keeps the result so the
// work cannot be dropped.
std::uint64_t sysbench_cpu_event(std::uint64_t max_prime);

}  // namespace stand_sysprobe
