// The processes of a box by name, and what changed between two looks: how a
// step shows that a core was restarted (a new PID under the same name)
// instead of assuming it.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace stand::box {

// `dirs` and every group below them (a container sits in a child group).
std::vector<std::filesystem::path> with_subgroups(const std::vector<std::filesystem::path>& dirs);

struct BoxProcess {
    pid_t pid = 0;
    std::string name;  // /proc/PID/comm
};

// The members of `dirs` and their child groups, sorted by pid; a process
// that ends while being read is left out.
std::vector<BoxProcess> box_processes(const std::vector<std::filesystem::path>& dirs);

struct ProcessChanges {
    std::vector<BoxProcess> gone;     // in `before`, not in `after`
    std::vector<BoxProcess> started;  // in `after`, not in `before`
    // Names with every PID gone and a PID started: "xray-linux-amd6 1234 -> 5678".
    std::vector<std::string> replaced;
    // Names with a PID gone and one started while another PID of the name
    // lived on: a server's per-connection workers (PostgreSQL's backends
    // under a postmaster that kept its PID), not a restart.
    std::vector<std::string> turnover;

    // {"before": [{pid, name}], "after": [...], "gone": [...], "started": [...], "replaced": [...],
    //  "turnover": [...]}
    boost::json::object to_json(const std::vector<BoxProcess>& before, const std::vector<BoxProcess>& after) const;
};

ProcessChanges compare_processes(const std::vector<BoxProcess>& before, const std::vector<BoxProcess>& after);

}  // namespace stand::box
