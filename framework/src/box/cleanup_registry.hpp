// Every live box, so an interrupted run can kill and remove them all.
//
// Not for signal handlers: cleanup_all_boxes() takes locks, allocates and
// sleeps. Wiring in the CLI (src/cli/main.cpp):
//
//   1. In main(), before any thread starts, block SIGINT and SIGTERM
//      (pthread_sigmask); every thread created later inherits the mask.
//   2. Start one watcher thread that sigwait()s on {SIGINT, SIGTERM}. (With
//      a classic handler instead: the handler only writes the signal number
//      to a self-pipe or stores it in a std::atomic<int>, and the watcher
//      thread or the main loop reads it.)
//   3. On a signal the watcher, in ordinary thread context: cancels the
//      running PluginHosts (PluginHost::cancel()), calls
//      ProcessManager::kill_all() on each, then stand::box::cleanup_all_boxes(),
//      writes the partial results, and finally restores SIG_DFL, unblocks and
//      re-raises the signal (exit status 130 / 143).
//   4. At start-up, cleanup_stale_boxes() (stale_cleanup.hpp) removes what a
//      crashed run (SIGKILL, power loss) left behind.
//
// Boxes register and unregister themselves; after cleanup_all_boxes() a Box
// object is an empty shell whose destructor does nothing.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace stand::box {

class Cleanable {
public:
    virtual ~Cleanable() = default;
    // Kill the processes, remove the groups. Idempotent, thread-safe.
    virtual void destroy() noexcept = 0;
};

void register_cleanable(std::shared_ptr<Cleanable> item);
void unregister_cleanable(const Cleanable* item) noexcept;

// destroy()s every registered box; returns how many there were.
std::size_t cleanup_all_boxes() noexcept;
std::size_t live_box_count() noexcept;

}  // namespace stand::box
