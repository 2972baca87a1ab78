// The processes of one session, found in /proc. The plugin worker is a
// session leader (setsid), so every process a plugin starts stays in the
// worker's session, also one in a process group of its own (stand.process/1
// "new_process_group"): killing the session leaves nothing of the instance.
#pragma once

#include <cstddef>
#include <sys/types.h>
#include <vector>

namespace stand::isolation {

// The live processes (zombies left out) whose session id is `sid`.
std::vector<pid_t> session_members(pid_t sid);

// SIGKILLs every process of session `sid`, again until a scan finds none
// (a fork racing the first round is caught by the next); returns how many
// distinct processes it signalled. Call it while the session leader is an
// unreaped child of the caller, so that `sid` cannot name a stranger.
std::size_t kill_session(pid_t sid);

}  // namespace stand::isolation
