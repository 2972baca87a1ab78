#include "prime_event.hpp"

#include <cmath>

namespace stand_sysprobe {

__attribute__((noinline)) std::uint64_t sysbench_cpu_event(std::uint64_t max_prime) {
    // Hides the limit's value from the optimiser so that consecutive events
    // cannot be folded into one, even if this function were inlined.
    __asm__ __volatile__("" : "+r"(max_prime));
    std::uint64_t primes = 0;
    for (std::uint64_t c = 3; c < max_prime; ++c) {
        const double root = std::sqrt(static_cast<double>(c));
        std::uint64_t divisor = 2;
        for (; static_cast<double>(divisor) <= root; ++divisor)
            if (c % divisor == 0) break;
        if (static_cast<double>(divisor) > root) ++primes;
    }
    return primes;
}

}  // namespace stand_sysprobe
