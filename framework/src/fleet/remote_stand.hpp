// This stand on a fleet host. `push` installs the running binary and the
// plugins it found into ~/.stand/stand-VERSION-BUILD/ on the host (debug
// info stripped; tar over the session, unpacked beside and renamed into
// place, so a dropped connection leaves no half install); `check` runs that
// copy's `stand fleet facts` and measures the host's clock against this
// one's through its `stand fleet clock`.
#pragma once

#include "fleet/ssh_session.hpp"

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stand::fleet {

// ".stand/stand-<version>-<first 12 hex of the build-id>", relative to the
// remote user's home.
std::string install_dir();

struct PushResult {
    std::string dir;
    bool already_there = false;  // the same build was installed: nothing sent
    std::uint64_t bytes_sent = 0;
    std::size_t plugins = 0;
};

// Throws FleetError naming the host and the step that failed.
PushResult push(const SshSession& session, const std::vector<std::filesystem::path>& plugin_files, bool force);

// The host's clock minus this one's, from the exchange with the smallest
// round trip (as NTP does): the offset is exact to within half that round
// trip, `uncertainty_ns`.
struct ClockOffset {
    std::int64_t offset_ns = 0;
    std::int64_t uncertainty_ns = 0;
    int samples = 0;
};

struct HostCheck {
    boost::json::object facts;  // the host's `stand fleet facts`; empty when it has no usable stand
    ClockOffset clock;
    std::string problem;        // "" when a run may use the host; else why not and what to do
};

HostCheck check(const SshSession& session);

// The clock exchange itself: `samples` round trips with the host's stand.
ClockOffset measure_clock(const SshSession& session, int samples = 9);

}  // namespace stand::fleet
