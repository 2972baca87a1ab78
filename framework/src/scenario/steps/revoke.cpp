// revoke_under_traffic: keys, defaults and metrics (run: revoke_run.cpp).
#include "scenario/steps/revoke.hpp"

#include "scenario/steps/revoke_run.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel_keys.hpp"

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;

StepAction read_revoke(const ObjectReader& r, const StepParseContext& ctx) {
    RevokeStep step;
    const std::string action = expect_string(r.require("action", "\"delete\" or \"disable\""), r.at("action"), true);
    if (action != "delete" && action != "disable") r.at("action").fail("\"delete\" or \"disable\"", r.find("action"));
    step.action = action == "delete" ? RevokeStep::Action::delete_user : RevokeStep::Action::disable_user;
    step.source = read_tunnel_source(r, ctx);
    if (auto v = r.uint("user", 0, step_keys::kMaxUsers - 1)) step.source.user = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("others", 0, 64)) step.others = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("streams", 1, 1024)) step.streams = static_cast<std::uint32_t>(*v);
    if (auto v = r.positive("after_s", step_keys::kMaxDurationS)) step.after = Seconds(*v);
    if (auto v = r.positive("watch_s", step_keys::kMaxDurationS)) step.watch = Seconds(*v);
    if (auto v = r.uint("probe_every_ms", 10, step_keys::kMaxIntervalMs)) step.probe_every = milliseconds(*v);
    if (step.watch < Seconds(2)) r.at("watch_s").fail("at least 2 seconds (streams still flowing in its last second)", r.find("watch_s"));
    return step;
}

// The tunnels' links are fetched first, a second each at most; then the window.
milliseconds revoke_timeout(const StepAction& a, milliseconds) {
    const auto& s = a.get<RevokeStep>();
    const auto window = std::chrono::duration_cast<milliseconds>(s.after + s.watch);
    return window + milliseconds(1000) * static_cast<long long>(s.others + 1) + milliseconds(60'000);
}

}  // namespace

const StepKind& revoke_under_traffic_kind() {
    static const StepKind k{
        .name = "revoke_under_traffic",
        .summary = "user's Hysteria 2 tunnel carries streams downloads beside others users' tunnels; after after_s the "
                   "panel deletes or disables the user; times until a new connection with its credential is refused "
                   "and until its established streams stop (or still flowing after watch_s), and counts what the "
                   "other users lost",
        .interface = "stand.panel/1",
        .keys = {{"action", "delete or disable (set_user_enabled false, ABI 1.3; enabled again after the step)",
                  "required"},
                 {"user", "integer (a created user's index: the one revoked)", "0"},
                 {"others", "integer 0..64 (users user+1.., each its own tunnel beside it)", "1"},
                 kTunnelSink, kTunnelCc, kTunnelIfElsewhere,
                 {"streams", "integer 1..1024 (/zero downloads per tunnel)", "4"},
                 {"after_s", "number > 0 (traffic before the revocation)", "3"},
                 {"watch_s", "number >= 2 (watched after it)", "10"},
                 {"probe_every_ms", "integer 10..60000 (a new connection tried with the revoked credential)", "100"}},
        .metrics = {"call_ms", "refused_s", "streams_stopped_s", "still_flowing", "revoked_mbit_before",
                    "revoked_mbit_after", "others_streams_dropped", "others_connection_losses", "others_mbit_after"},
        .parse = read_revoke,
        .timeout_of = revoke_timeout,
        .users_needed = [](const StepAction& a) {
            const auto& revoke = a.get<RevokeStep>();
            return revoke.source.server.empty() ? revoke.source.user + revoke.others + 1 : 0u;
        },
        .run = run_revoke};
    return k;
}

}  // namespace stand::scenario::steps
