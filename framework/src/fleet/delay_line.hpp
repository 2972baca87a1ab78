// stand's own delay line, for `--link` on a host whose kernel has no netem
// qdisc (this machine kind's: CONFIG_NET_SCH_NETEM is not set). It runs on
// the generator host (`stand fleet delay-line`, started by the controller
// over ssh): a TUN device takes the packets the host routes to it (the
// controller adds a /32 route to the target through it), holds each for
// the declared delay (plus a uniform jitter in [-jitter, +jitter], never
// reordering: a packet leaves no earlier than the one before it), drops the
// declared share at random, and sends the rest out of the real interface
// unchanged through a raw socket bound to it. Replies come back on the real
// interface, so the whole delay is on the requests' way, as with netem on
// the generator's egress. IPv4 only.
//
// The TUN device is not persistent: however the process ends (its stdin
// closed, a signal, SIGKILL), the device and the route through it go with
// it, and the host's network is as before.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace stand::fleet {

struct DelayLinePlan {
    std::string via;  // the real interface towards the target
    std::chrono::nanoseconds delay{0};
    std::chrono::nanoseconds jitter{0};
    double loss_pct = 0;  // 0..100
};

struct DelayLineCounts {
    std::uint64_t forwarded = 0;
    std::uint64_t lost = 0;       // dropped as the plan's loss
    std::uint64_t overflow = 0;   // dropped: the queue held its limit
    std::uint64_t not_ipv4 = 0;   // dropped: the device carries IPv4 only
    std::uint64_t send_failed = 0;
};

// Runs the delay line on this host until `stop_fd` (the caller's stdin)
// has something to read (a "stop" line) or reaches its end, or SIGTERM/SIGINT arrives. Once the device is up it
// prints "delay-line DEVICE" and a newline on `out`; if it cannot run it
// prints "refused: WHY" (naming the interface or the system call) and
// returns 1. At the end it prints one "delay-line done ..." line with the
// counts and returns 0.
int run_delay_line(const DelayLinePlan& plan, int stop_fd, std::ostream& out);

}  // namespace stand::fleet
