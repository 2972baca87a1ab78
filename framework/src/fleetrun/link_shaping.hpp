// Declared network conditions on the link from a generator host to its
// target (issue 19, item 4, `stand load --link`): a root qdisc on the
// generator's interface towards the target, on its egress (the requests'
// direction: the whole declared RTT is added there): `netem` for rtt,
// jitter and loss (with the rate inside it), `tbf` for a rate alone. Where
// the kernel has no netem (this machine kind's: CONFIG_NET_SCH_NETEM is not
// set) rtt, jitter and loss go through stand's own delay line
// (remote_delay_line.hpp), with a rate in tbf, and the output says so. It
// is put there only for the load and taken off after it, however it ends.
// Root is needed on the host;
// an interface with a qdisc of its own (anything but a kernel default) is
// refused, never replaced. The RTT is measured back before the load, from
// TCP connects to the target (a short `stand load --keepalive off` on the
// host), before and after the qdisc goes on.
#pragma once

#include "fleet/ssh_session.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::fleetrun {

struct LinkPlan {
    std::chrono::nanoseconds rtt{0};
    std::chrono::nanoseconds jitter{0};
    double loss_pct = 0;                    // 0..100
    std::optional<std::uint64_t> rate_bits;  // per second; none: no cap
};

// "rtt=50ms,jitter=5ms,loss=0.5%,rate=100mbit", each part optional but
// one needed, jitter only with rtt; throws std::invalid_argument naming the
// part that is wrong.
LinkPlan parse_link_plan(std::string_view text);

// The arguments after `tc qdisc replace dev IFACE root`.
std::vector<std::string> qdisc_args(const LinkPlan& plan);
// Those of tbf alone, for a rate.
std::vector<std::string> rate_qdisc_args(std::uint64_t rate_bits);

boost::json::object link_plan_json(const LinkPlan& plan);

// Whether a measured RTT (the median connect time with the qdisc on, and
// the one before it went on) is what the plan says: the planned RTT on top
// of the one before, within 10 % of the plan, twice the jitter and 2 ms.
bool rtt_as_planned(const LinkPlan& plan, std::int64_t before_us, std::int64_t measured_us);

class RemoteDelayLine;

// The qdisc on one host's interface towards `target_address` (an IP
// literal). The constructor throws FleetError naming the host, the
// interface and what tc said; take_off() removes it (once) and says why it
// could not, and the destructor takes it off when nobody did.
class ShapedLink {
public:
    ShapedLink(const fleet::SshSession& session, const std::string& target_address, const LinkPlan& plan);
    ~ShapedLink();
    ShapedLink(const ShapedLink&) = delete;
    ShapedLink& operator=(const ShapedLink&) = delete;
    const std::string& interface() const noexcept { return interface_; }
    // What carries the plan: "netem", "tbf", "stand delay line" or
    // "stand delay line + tbf".
    const std::string& applied_with() const noexcept { return applied_with_; }
    // "" when the interface has its own qdisc back (and the delay line, if
    // any, is gone); else what went wrong.
    std::string take_off();
    // The delay line's packet counts once taken off (empty without one).
    boost::json::object delay_line_counts() const;

private:
    // `tc qdisc replace ... root ARGS`; false when the kernel lacks the kind.
    bool put(const std::vector<std::string>& args);

    const fleet::SshSession& session_;
    std::string interface_, source_, applied_with_;
    bool on_ = false;
    std::unique_ptr<RemoteDelayLine> delay_line_;
};

}  // namespace stand::fleetrun
