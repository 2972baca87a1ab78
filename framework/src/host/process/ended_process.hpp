// A child of stand.process/1 that ended while its plugin still held it (the
// plugin has not released it): a server that exits early, e.g. a panel whose
// port is taken. Readiness stops on one at once instead of polling on.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace stand::host {

struct EndedProcess {
    std::string name;    // argv[0]'s file name
    std::int64_t pid = 0;
    bool signaled = false;
    int code = 0;        // exit status, or the signal number when `signaled`
    std::string output;  // the file its stdout and stderr went to
};

boost::json::object to_json(const EndedProcess& p);
// Throws std::exception on a malformed object (a worker's reply).
EndedProcess ended_process_from_json(const boost::json::object& o);
std::vector<EndedProcess> ended_processes_from_json(const boost::json::value& v);

// "python3 (pid 42) exited with status 1; the end of its log /run/panel.log:\n<last lines>"
// The tail is at most `max_lines` lines and `max_bytes` bytes; "(empty)" or
// "(unreadable)" when there is nothing to show.
std::string describe_exit(const EndedProcess& p, std::size_t max_lines = 12, std::size_t max_bytes = 2000);

}  // namespace stand::host
