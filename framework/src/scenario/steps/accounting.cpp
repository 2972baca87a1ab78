// traffic_accounting: keys, defaults and metrics (run: accounting_run.cpp).
#include "scenario/steps/accounting.hpp"

#include "scenario/steps/accounting_run.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/tunnel_keys.hpp"

namespace stand::scenario::steps {
namespace {

using std::chrono::milliseconds;

StepAction read_accounting(const ObjectReader& r, const StepParseContext& ctx) {
    AccountingStep step;
    step.source = read_tunnel_source(r, ctx);
    if (auto v = r.uint("user", 0, step_keys::kMaxUsers - 1)) step.source.user = static_cast<std::uint32_t>(*v);
    if (auto v = r.uint("users", 1, 4096)) step.users = static_cast<std::uint32_t>(*v);
    if (auto v = r.positive("mib_per_user", 1024)) step.mib_per_user = *v;
    if (auto v = r.positive("ramp_s", step_keys::kMaxDurationS)) step.ramp = Seconds(*v);
    if (auto v = r.positive("transfer_within_s", step_keys::kMaxDurationS)) step.transfer_within = Seconds(*v);
    if (auto v = r.positive("settle_within_s", step_keys::kMaxDurationS)) step.settle_within = Seconds(*v);
    if (auto v = r.positive("poll_every_s", 600)) step.poll_every = Seconds(*v);
    if (auto v = r.positive("tolerance_pct", 100)) step.tolerance_pct = *v;
    if (step.ramp >= step.transfer_within)
        r.at("ramp_s").fail("a number of seconds less than transfer_within_s", r.find("ramp_s"));
    return step;
}

// Links first (a second each at most), the transfer, the settling, and a
// count read for every user before and at each poll (a second each at most).
milliseconds accounting_timeout(const StepAction& a, milliseconds) {
    const auto& s = a.get<AccountingStep>();
    const auto windows = std::chrono::duration_cast<milliseconds>(s.transfer_within + s.settle_within);
    return windows + milliseconds(3000) * static_cast<long long>(s.users) + milliseconds(60'000);
}

}  // namespace

const StepKind& traffic_accounting_kind() {
    static const StepKind k{
        .name = "traffic_accounting",
        .summary = "users tunnels (users user.. each its own link) connect over ramp_s, then all download mib_per_user "
                   "at once; then the "
                   "panel's count of each user's traffic (user_traffic, ABI 1.3) is read every poll_every_s until "
                   "every count is within tolerance_pct of the bytes stand moved and stays so: the panel's count "
                   "against stand's, and the delay until it settles",
        .interface = "stand.panel/1",
        .keys = {{"user", "integer (a created user's index: the first counted)", "0"},
                 {"users", "integer 1..4096 (users user..user+users-1, a tunnel each, all at once)", "1"},
                 kTunnelSink, kTunnelCc, kTunnelIfElsewhere,
                 {"mib_per_user", "number > 0, at most 1024 (one /zero?bytes=N download per tunnel)", "4"},
                 {"ramp_s", "number < transfer_within_s (the tunnels connect spread over it, then download together)", "2"},
                 {"transfer_within_s", "number > 0 (every download done by then)", "300"},
                 {"settle_within_s", "number > 0 (the panel's counts are polled that long at most)", "60"},
                 {"poll_every_s", "number > 0, at most 600 (start to start; each poll reads every user once)", "1"},
                 {"tolerance_pct", "number > 0, at most 100 (a count this close to stand's is right)", "1"}},
        .metrics = {"stand_mib", "panel_mib", "ratio", "ratio_min", "ratio_median", "ratio_max", "up_ratio",
                    "down_ratio", "users_off", "users_uncounted", "settled", "settle_s", "last_change_s",
                    "transfer_failures", "transfer_s", "poll_ms", "links_s"},
        .parse = read_accounting,
        .timeout_of = accounting_timeout,
        .users_needed = [](const StepAction& a) {
            const auto& acc = a.get<AccountingStep>();
            return acc.source.server.empty() ? acc.source.user + acc.users : 0u;
        },
        .run = run_accounting};
    return k;
}

}  // namespace stand::scenario::steps
