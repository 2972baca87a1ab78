// A panel's processes, declared as data: the panel itself, its database, its
// cache, its node or core, its workers and its one-shot steps (migrations, a
// seeder). The kit (ProcessRunner) starts them in the measured box in the
// order given, waits for each that says how it is ready, names the one that
// died with its exit status and the end of its log, stops them in reverse,
// and counts their programs and data (facts "artifacts", "process_data").
// Every string may use the adapter's variables (${data_dir}, ${port}, ...),
// expanded when the process starts.
//
//   auto db = stand_panel_kit::service("postgres", {"postgres", "-D", "${data_dir}/postgres", "-p", "${db_port}"});
//   db.user = "postgres";                       // PostgreSQL refuses to run as root
//   db.data = {"postgres"};                     // <data dir>/postgres is its own
//   db.ready.tcp = "127.0.0.1:${db_port}";
//   db.on_restart = stand_panel_kit::OnRestart::persists;
//   db.stop_signal = SIGINT;                    // "fast" shutdown
//   auto init = stand_panel_kit::step("initdb", {"initdb", "-D", "${data_dir}/postgres"}, RunWhen::first_start);
#pragma once

#include <csignal>
#include <map>
#include <string>
#include <vector>

namespace stand_panel_kit {

// When a one-shot step runs.
enum class RunWhen {
    every_start,  // at every start of its part (migrations as an image runs them, a seeder)
    first_start,  // once per data dir (initdb, creating the database); wipe() makes it run again
};

// What restart() does to a process.
enum class OnRestart {
    restarts,  // stopped and started again with the panel (the panel, its workers)
    persists,  // keeps running (a database, a cache, a node), as `docker restart` of the panel's container leaves them
};

// How the kit knows a long-running process serves. All that are given must
// hold; none given: it is ready once spawned. The adapter's readiness() (the
// host's check) is what says the panel itself serves.
struct ReadyCheck {
    std::string tcp;                   // "host:port" (numeric host): a connection is accepted
    std::string unix_socket;           // a path: a connection is accepted
    std::vector<std::string> command;  // exits 0 (e.g. pg_isready), run outside the box, 5 s at most each try
    int timeout_ms = 60000;            // then start() fails naming the process and its log's end; so does
                                       // a call the host cancels first (its step's timeout)
};

struct PanelProcess {
    std::string name;                        // names it in messages and facts; its log is <name>.log
    std::vector<std::string> argv;           // argv[0] is looked up in PATH when it has no '/'
    std::map<std::string, std::string> env;  // added to stand's environment (and over env_file's)
    std::string env_file;                    // KEY=VALUE lines added to the environment at each start, as
                                             // compose's env_file (# comments, no quotes or ${} taken apart)
    std::string working_dir;                 // "": stand's
    std::string user;                        // run as this user ("": stand's); its data folders become theirs
    bool one_shot = false;                   // a step: run to its end (exit 0) before the next entry starts
    RunWhen when = RunWhen::every_start;     // one_shot only
    int step_timeout_ms = 600000;            // one_shot only: then it is killed and start() fails (as at a
                                             // host's cancel before it: named, with its log's end)
    OnRestart on_restart = OnRestart::restarts;
    bool autostart = true;                   // false: the adapter starts it (start_process()), e.g. a node once enrolled
    ReadyCheck ready;                        // long-running only
    int stop_signal = SIGTERM;               // what stops it gracefully
    int stop_timeout_ms = 10000;             // then SIGKILL
    std::vector<std::string> data;           // folders under the data dir that hold its data: made before it
                                             // starts (a first_start step gets them empty), counted in facts
    std::string box = "measured";            // the box it runs in; "": none
    std::string install_hint;                // install()'s advice when its program is missing (how to get it,
                                             // which config key names it); "": the adapter's for the panel
};

// A long-running process.
PanelProcess service(std::string name, std::vector<std::string> argv);
// A one-shot step.
PanelProcess step(std::string name, std::vector<std::string> argv, RunWhen when);

}  // namespace stand_panel_kit
