#include "load/thread_affinity.hpp"

#include <pthread.h>
#include <sched.h>

#include <cerrno>

namespace stand::load {

int pin_this_thread(const std::set<unsigned>& cpus) {
    if (cpus.empty()) return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned c : cpus) {
        if (c >= CPU_SETSIZE) return EINVAL;
        CPU_SET(c, &set);
    }
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

}  // namespace stand::load
