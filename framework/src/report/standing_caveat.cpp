#include "report/standing_caveat.hpp"

namespace stand::report {

std::string standing_caveat(const boost::json::object& run) {
    if (run.contains("fleet_hosts"))
        return "Always true here: each host ran the whole scenario on its own (lines HOST/PLUGIN), its load generator "
               "and system under test sharing that host; loopback has no RTT and no loss; the columns compare the "
               "hosts, not a network path between them.";
    return "Always true here: the load generator and the system under test share this machine; loopback has no RTT "
           "and no loss.";
}

}  // namespace stand::report
