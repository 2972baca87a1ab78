// A message from a plugin worker (worker_main.hpp) as the host reads it. The
// worker runs a plugin's code and is not trusted: a message of the wrong
// shape is a protocol failure naming what is wrong, never an exception.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <string>

namespace stand::isolation {

struct WorkerMessage {
    // log:      {"type":"log","level":INT,"message":STRING}
    // progress: {"type":"progress","fraction":NUMBER,"message":STRING}
    // secret:   {"type":"secret","value":STRING}   a value the plugin marked (stand.secrets/1)
    // reply:    {"type":"reply","id":ID,"result":INT32[,"error":STRING][,"output":ANY]}
    // unexpected: anything else, a reply to another id included (`problem` says what).
    enum class Kind { log, progress, secret, reply, unexpected };
    Kind kind = Kind::unexpected;
    int level = 0;
    double fraction = 0;
    std::string message;        // log, progress; secret: the value
    std::int32_t code = 0;      // reply: the plugin's stand_result
    std::string error;          // reply
    boost::json::value output;  // reply (null when none)
    std::string problem;        // unexpected
};

// `expected_id`: the id of the request waiting for its reply.
WorkerMessage read_worker_message(const boost::json::object& m, std::int64_t expected_id);

}  // namespace stand::isolation
