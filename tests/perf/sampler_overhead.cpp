// Sampler overhead on a real box: samples at 10 Hz (or --interval-ms) for N
// seconds (default 10) and prints the sampling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID) as a share of one core, next to a thread that only
// wakes on the same schedule (the cost of waking at all). Goal: <= 0.2 %.
// Exit status 1 when over the goal, 2 on usage or setup errors. Needs root.
//
//   build/bin/stand_sampler_overhead [seconds] [--interval-ms N]
#include "box/box.hpp"
#include "box/group_name.hpp"
#include "sampler/sampler.hpp"

#include <atomic>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

int main(int argc, char** argv) {
    double seconds = 10;
    long interval_ms = 100;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--interval-ms" && i + 1 < argc)
            interval_ms = std::strtol(argv[++i], nullptr, 10);
        else
            seconds = std::strtod(a.c_str(), nullptr);
    }
    if (seconds <= 0 || interval_ms <= 0) {
        std::fprintf(stderr, "usage: %s [seconds] [--interval-ms N]\n", argv[0]);
        return 2;
    }
    try {
        auto layout = stand::box::detect_cgroup_layout();
        std::printf("cgroups: %s\n", layout.describe().c_str());
        stand::box::Box box(layout, "overhead-" + stand::box::new_run_id(), {.name = "measured"});
        stand::sampler::Sampler sampler(stand::sampler::make_cgroup_source(box.paths()),
                                        {.interval = std::chrono::milliseconds(interval_ms)});
        std::printf("sampling %s every %ld ms for %.1f s\n", sampler.describe().c_str(), interval_ms, seconds);
        // The floor: a thread that only wakes on the same schedule, running
        // side by side, so the sampler's own reads can be told from the cost
        // of waking up at all on this machine.
        std::atomic<bool> stop_floor{false};
        double floor_cpu_s = 0;
        std::thread floor([&] {
            auto next = std::chrono::steady_clock::now();
            while (!stop_floor.load()) {
                next += std::chrono::milliseconds(interval_ms);
                std::this_thread::sleep_until(next);
            }
            timespec ts{};
            ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            floor_cpu_s = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
        });
        const auto t0 = std::chrono::steady_clock::now();
        sampler.start();
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        auto cpu = sampler.thread_cpu_time();
        stop_floor = true;
        floor.join();
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        sampler.stop();
        if (!cpu) {
            std::fprintf(stderr, "cannot read the sampling thread's CPU clock\n");
            return 2;
        }
        const auto n = sampler.samples().size();
        const double cpu_s = std::chrono::duration<double>(*cpu).count();
        const double pct = cpu_s / wall * 100.0;
        std::printf("samples %zu (missed %zu), thread CPU %.3f ms, %.1f us per sample, %.4f %% of one core "
                    "(goal <= 0.2 %%)\n",
                    n, sampler.missed(), cpu_s * 1e3, n ? cpu_s * 1e6 / static_cast<double>(n) : 0.0, pct);
        std::printf("floor (a thread that only wakes every %ld ms): %.4f %% of one core; sampler minus floor: %.4f %%\n",
                    interval_ms, floor_cpu_s / wall * 100.0, pct - floor_cpu_s / wall * 100.0);
        return pct <= 0.2 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
