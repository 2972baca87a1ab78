// Turns a stand.process/1 spawn spec (JSON) into everything fork+exec needs,
// checked up front so spawn() fails with a precise code and message.
#pragma once

#include "host/process/process_manager.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <optional>
#include <sys/types.h>
#include <string>
#include <vector>

namespace stand::host {

// Who the child runs as ("user" in the spec): resolved before fork, since
// getpwnam is not safe in a forked child of a threaded process.
struct RunAs {
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<gid_t> groups;  // supplementary groups, as initgroups(3) would set them
};

struct SpawnPlan {
    std::string executable;                      // resolved path handed to execve
    std::vector<std::string> argv;               // as given (argv[0] unchanged)
    std::vector<std::string> env;                // "K=V", the child's whole environment
    std::optional<std::filesystem::path> cwd;    // existing directory
    std::vector<std::filesystem::path> cgroups;  // directories to join, from the box
    std::optional<std::filesystem::path> output; // absent: the manager picks a file
    bool new_process_group = true;
    std::optional<RunAs> run_as;                 // absent: stand's own user
};

// Throws stand::cpp::Error: INVALID_ARGUMENT for a malformed spec, an unknown
// key or box; NOT_FOUND for a missing executable, cwd or user.
SpawnPlan parse_spawn_spec(const boost::json::object& spec, const BoxResolver& boxes);

}  // namespace stand::host
