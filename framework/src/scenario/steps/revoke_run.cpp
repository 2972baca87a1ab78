#include "scenario/steps/revoke_run.hpp"

#include "load/load_clock.hpp"
#include "scenario/steps/revoke.hpp"
#include "scenario/steps/tunnel_run.hpp"
#include "tunnel/auth_probe.hpp"
#include "tunnel/tunnel_run.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

// A refusal is the server's answer; silence (a restarting core) is not one.
bool refused(const std::string& problem) { return problem.rfind("authentication refused", 0) == 0; }

double mbit(std::uint64_t bytes, double seconds) { return seconds > 0 ? static_cast<double>(bytes) * 8 / 1e6 / seconds : 0; }

// Every tunnel on a thread of its own, stopped and joined however the step ends.
class Tunnels {
public:
    Tunnels(RepContext& ctx, const Step& s, const std::vector<tunnel::TunnelSpec>& specs)
        : live_(std::make_unique<tunnel::TunnelLive[]>(specs.size())), results_(specs.size()), errors_(specs.size()) {
        hooks_.resize(specs.size());
        for (std::size_t i = 0; i < specs.size(); ++i) {
            hooks_[i].stop = &stop_;
            hooks_[i].live = &live_[i];
            threads_.emplace_back([this, &ctx, &s, &specs, i] {
                try {
                    results_[i] = tunnel::run_tunnel(specs[i], hooks_[i]);
                } catch (const tunnel::RemoteServerError& e) {
                    errors_[i] = remote_server_problem(ctx, s, e, specs[i].link);
                } catch (const std::exception& e) {
                    errors_[i] = e.what();
                }
            });
        }
    }
    ~Tunnels() { join(); }
    Tunnels(const Tunnels&) = delete;
    Tunnels& operator=(const Tunnels&) = delete;

    void join() {
        stop_ = true;
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }
    const tunnel::TunnelLive& live(std::size_t i) const { return live_[i]; }
    std::uint64_t bytes(std::size_t i) const { return live_[i].bytes.load(std::memory_order_relaxed); }
    const std::optional<tunnel::TunnelResult>& result(std::size_t i) const { return results_[i]; }
    const std::string& error(std::size_t i) const { return errors_[i]; }

private:
    std::atomic<bool> stop_{false};
    std::unique_ptr<tunnel::TunnelLive[]> live_;
    std::vector<tunnel::TunnelHooks> hooks_;
    std::vector<std::optional<tunnel::TunnelResult>> results_;
    std::vector<std::string> errors_;
    std::vector<std::thread> threads_;
};

std::vector<tunnel::TunnelSpec> tunnel_specs(RepContext& ctx, const Step& s, const RevokeStep& a,
                                             std::vector<hysteria::HysteriaLink> links) {
    const std::string sink = tunnel_sink(ctx, s, a.source);
    std::vector<tunnel::TunnelSpec> specs;
    for (auto& link : links) {
        tunnel::TunnelSpec spec;
        spec.link = std::move(link);
        spec.sink = sink;
        spec.streams = a.streams;
        // Ended by the step (stop) when the watch is over; the margin covers the call and the probes' last try.
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.after + a.watch + Seconds(60));
        spec.probe_interval = std::chrono::seconds(1);
        spec.congestion_control = a.source.cc;
        spec.allow_remote = ctx.env.scenario.allow_remote;
        specs.push_back(std::move(spec));
    }
    return specs;
}

void sleep_until(RepContext& ctx, RepClock::time_point until) {
    while (RepClock::now() < until) {
        ctx.throw_if_interrupted();
        std::this_thread::sleep_for(std::min<RepClock::duration>(until - RepClock::now(), std::chrono::milliseconds(50)));
    }
}

}  // namespace

void run_revoke(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<RevokeStep>();
    const std::uint32_t tunnels = a.others + 1;
    if (a.source.user + tunnels > ctx.users.size())
        throw StepFailure("step " + s.name + " revokes user " + std::to_string(a.source.user) + " beside " +
                          std::to_string(a.others) + " other(s) after it, but " + std::to_string(ctx.users.size()) +
                          " users exist: create more before it");
    std::vector<hysteria::HysteriaLink> links;  // fetched before anything is revoked: a deleted user's link is gone
    for (std::uint32_t i = 0; i < tunnels; ++i) links.push_back(tunnel_link(ctx, s, a.source, a.source.user + i));
    if (!elsewhere_reason(ctx, s, a.source, links.front()).empty()) return;
    const RepUser revoked = ctx.users[a.source.user];
    const auto specs = tunnel_specs(ctx, s, a, links);
    const bool remote = ctx.env.scenario.allow_remote;

    Tunnels running(ctx, s, specs);
    const auto started = RepClock::now();
    sleep_until(ctx, started + std::chrono::duration_cast<RepClock::duration>(a.after));
    std::vector<std::uint64_t> at_revoke(tunnels);
    for (std::uint32_t i = 0; i < tunnels; ++i) at_revoke[i] = running.bytes(i);

    const bool disable = a.action == RevokeStep::Action::disable_user;
    const std::string method = disable ? "panel.set_user_enabled" : "panel.delete_user";
    json::object args{{"id", revoked.id}};
    if (disable) args["enabled"] = false;
    const auto revoke_ns = load::now_ns();
    const auto called = RepClock::now();
    const auto reply = ctx.worker.call(method, args, std::chrono::seconds(30));
    const double call_ms = std::chrono::duration<double, std::milli>(RepClock::now() - called).count();
    if (!reply.ok()) throw StepFailure("step " + s.name + ": " + method + "(" + revoked.id + "): " + reply.error);

    const auto watch_end = called + std::chrono::duration_cast<RepClock::duration>(a.watch);
    std::optional<double> refused_s;
    std::string last_answer;
    std::uint64_t tries = 0;
    while (RepClock::now() < watch_end) {
        ctx.throw_if_interrupted();
        const std::string problem = tunnel::hysteria_auth_problem(links.front(), remote, std::chrono::seconds(1));
        ++tries;
        if (refused(problem)) {
            refused_s = std::chrono::duration<double>(RepClock::now() - called).count();
            last_answer = problem;
            break;
        }
        last_answer = problem.empty() ? "authenticated" : problem;
        std::this_thread::sleep_for(a.probe_every);
    }
    sleep_until(ctx, watch_end);
    const auto end_ns = load::now_ns();
    std::vector<std::uint64_t> at_end(tunnels);
    for (std::uint32_t i = 0; i < tunnels; ++i) at_end[i] = running.bytes(i);
    const std::int64_t last_data_ns = running.live(0).last_data_ns.load(std::memory_order_relaxed);
    running.join();
    for (std::uint32_t i = 0; i < tunnels; ++i)
        if (!running.error(i).empty()) throw StepFailure("step " + s.name + ": tunnel " + std::to_string(i) + ": " + running.error(i));
    if (disable) {  // the user as it was, for the steps after this one
        const auto back = ctx.worker.call("panel.set_user_enabled", {{"id", revoked.id}, {"enabled", true}},
                                          std::chrono::seconds(30));
        if (!back.ok()) throw StepFailure("step " + s.name + ": enabling " + revoked.id + " again: " + back.error);
    }

    const double after_s = std::chrono::duration<double>(a.after).count();
    const double watch_s = std::chrono::duration<double>(a.watch).count();
    if (at_revoke[0] == 0)
        throw StepFailure("step " + s.name + ": the revoked user's tunnel carried nothing in the " +
                          std::to_string(after_s) + " s before the revocation" +
                          (running.result(0) && !running.result(0)->warnings.empty()
                               ? " (" + running.result(0)->warnings.front() + ")" : std::string()));
    // Bytes in the last second of the watch: the established streams were still flowing when it ended.
    const bool still_flowing = last_data_ns >= end_ns - 1'000'000'000;
    ctx.put(s.name + ".call_ms", call_ms);
    if (refused_s) ctx.put(s.name + ".refused_s", *refused_s);
    // Streams that stopped before the call stopped for another reason: no time is stated for them.
    if (last_data_ns < revoke_ns)
        throw StepFailure("step " + s.name + ": the revoked user's tunnel stopped bringing data " +
                          std::to_string(static_cast<double>(revoke_ns - last_data_ns) / 1e9) + " s before " + method +
                          (running.result(0) && !running.result(0)->loss_reasons.empty()
                               ? " (" + running.result(0)->loss_reasons.front() + ")" : std::string()));
    ctx.put(s.name + ".still_flowing", still_flowing ? 1 : 0);
    if (!still_flowing)
        ctx.put(s.name + ".streams_stopped_s", static_cast<double>(last_data_ns - revoke_ns) / 1e9);
    ctx.put(s.name + ".revoked_mbit_before", mbit(at_revoke[0], after_s));
    ctx.put(s.name + ".revoked_mbit_after", mbit(at_end[0] - at_revoke[0], watch_s));
    std::uint64_t dropped = 0, losses = 0, others_after = 0;
    json::array others;
    for (std::uint32_t i = 1; i < tunnels; ++i) {
        const auto& r = *running.result(i);
        dropped += r.streams_dropped;
        losses += r.connection_losses;
        others_after += at_end[i] - at_revoke[i];
        others.push_back(r.to_json());
    }
    if (tunnels > 1) {
        ctx.put(s.name + ".others_streams_dropped", static_cast<double>(dropped));
        ctx.put(s.name + ".others_connection_losses", static_cast<double>(losses));
        ctx.put(s.name + ".others_mbit_after", mbit(others_after, watch_s));
    }
    ctx.record.loads[s.name] = json::object{
        {"action", disable ? "disable" : "delete"}, {"user", revoked.id},  {"call_ms", call_ms},
        {"refusal_tries", tries},                  {"last_answer", last_answer},
        {"revoked", running.result(0)->to_json()}, {"others", others}};
    char text[320];
    if (!refused_s) {
        std::snprintf(text, sizeof text, "a new connection with the %s user's credential was not refused within %.0f s "
                      "(last answer: %s)", disable ? "disabled" : "deleted", watch_s, last_answer.c_str());
        ctx.record.finding(detect::Finding{"revocation-not-refused", ctx.scope(s), text});
    }
    if (still_flowing) {
        std::snprintf(text, sizeof text, "the %s user's established streams were still flowing %.0f s after %s "
                      "(%.1f Mbit/s in the watch)", disable ? "disabled" : "deleted", watch_s, method.c_str(),
                      mbit(at_end[0] - at_revoke[0], watch_s));
        ctx.record.finding(detect::Finding{"revoked-still-flowing", ctx.scope(s), text});
    }
    if (dropped > 0 || losses > 0)
        ctx.record.finding(detect::Finding{"revocation-hit-others", ctx.scope(s),
                                           std::to_string(dropped) + " stream(s) of the other users dropped, " +
                                               std::to_string(losses) + " connection loss(es)"});
}

}  // namespace stand::scenario::steps
