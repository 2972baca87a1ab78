// The plugin worker: a child process (`stand __worker`) that loads one plugin,
// creates one instance and serves interface calls sent by the host over a
// socket (fd 3). A crash or hang there costs one repetition, never the run.
#pragma once

namespace stand::isolation {

constexpr int kWorkerChannelFd = 3;

// Serves until "destroy" or until the host goes away; returns the exit code.
int run_worker_main();

}  // namespace stand::isolation
