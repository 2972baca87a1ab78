// One experiment per run directory, and one stand at a time in it.
//
// A RunLock is an exclusive flock(2) on RUN_DIR/lock, held for as long as the
// object lives: a run, a resume and a report each hold it, so a second one is
// refused at once, naming the holder's pid (/proc/locks, or what it wrote
// into the file). The lock
// goes with the process, also when it is killed, so a stale lock file never
// blocks anything.
#pragma once

#include "posix/unique_fd.hpp"

#include <filesystem>

namespace stand::rundir {

class RunLock {
public:
    // A new run: RUN_DIR must not exist or be an empty directory (a run
    // directory holds one experiment; old repetitions are never taken for
    // new ones), or hold only what a stand killed before it wrote run.json
    // left (the lock file, *.tmpPID files: removed). Creates it. Throws
    // text::UserError naming RUN_DIR and what to do.
    static RunLock for_new_run(const std::filesystem::path& root);
    // --resume or report: RUN_DIR must hold `must_hold` (run.json). Throws
    // text::UserError naming RUN_DIR.
    static RunLock for_existing_run(const std::filesystem::path& root, const char* must_hold = "run.json");

private:
    explicit RunLock(posix::UniqueFd fd) : fd_(std::move(fd)) {}
    static RunLock taken(const std::filesystem::path& root);
    posix::UniqueFd fd_;
};

}  // namespace stand::rundir
