#include "rundir/run_id.hpp"

#include <sys/random.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <stdexcept>

namespace stand::rundir {

std::string new_run_id() {
    std::uint64_t random = 0;
    if (::getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
        throw std::runtime_error("getrandom failed for a run id");
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char id[48];
    const auto stamp = std::strftime(id, sizeof id, "%Y%m%d-%H%M%S-", &tm);
    std::snprintf(id + stamp, sizeof id - stamp, "%016llx", static_cast<unsigned long long>(random));
    return id;
}

}  // namespace stand::rundir
