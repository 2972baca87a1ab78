// The controller's end of stand's delay line (fleet/delay_line.hpp) on a
// generator host: `stand fleet delay-line` started over ssh, the host's
// route to the target put through its TUN device, and both gone again when
// stop() closes the exchange (the device, and the route with it, go with
// the remote process however it ends, the connection dropping included).
#pragma once

#include "fleet/ssh_session.hpp"
#include "fleetrun/link_shaping.hpp"

#include <boost/json/object.hpp>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace stand::fleetrun {

class RemoteDelayLine {
public:
    // Starts it on `via` and routes `target_address` (IPv4) through it from
    // `source_address`; throws FleetError naming the host and what was
    // refused (nothing is left on the host then).
    RemoteDelayLine(const fleet::SshSession& session, const std::string& via, const std::string& target_address,
                    const std::string& source_address, const LinkPlan& plan);
    ~RemoteDelayLine();  // stop()
    RemoteDelayLine(const RemoteDelayLine&) = delete;
    RemoteDelayLine& operator=(const RemoteDelayLine&) = delete;

    const std::string& device() const noexcept { return device_; }
    // Ends it (once): "" when it ended as it should, else what went wrong.
    std::string stop();
    // Its counts once stopped (forwarded, lost, overflow, not_ipv4,
    // send_failed), empty before or when it did not say them.
    const boost::json::object& counts() const noexcept { return counts_; }

private:
    void converse(const std::vector<std::string>& argv);

    const fleet::SshSession& session_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool started_ = false, stop_asked_ = false, ended_ = false;
    std::string device_, problem_;
    boost::json::object counts_;
    std::thread thread_;
};

// The remote argument of `stand fleet delay-line` for a plan's delay,
// jitter and loss ("rtt=50000us,jitter=5000us,loss=0.5%").
std::string delay_line_plan_text(const LinkPlan& plan);

}  // namespace stand::fleetrun
