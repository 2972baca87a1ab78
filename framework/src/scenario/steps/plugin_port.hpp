// The plugin as a step sees it: one typed method per stand.* call the steps
// make, so an operation has one name from the step to the adapter (the
// ABI's panel.create_user is create_user() here and create_user_hook() in
// the panel kit). The product's port is the plugin worker (worker_port.hpp);
// the steps' unit tests drive a fake (tests/unit/steps/fake_port.hpp).
//
// Every call runs on the repetition's thread and blocks up to `timeout` (the
// worker's deadline for the call); once the run's interrupt flag is set, a
// call ends within the worker's grace as Failure::kInterrupted. No call
// throws for what the plugin answered: the reply says how it ended, and
// RepContext::must() turns a failed one into a StepFailure naming the call.
#pragma once

#include "isolation/plugin_worker.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace stand::scenario {

// The calls, in the order of their interfaces (sdk/include/stand/ext/*.h).
enum class PortCall {
    // stand.lifecycle/1
    install, start, restart, stop, wipe, facts, readiness,
    // stand.panel/1
    bootstrap, create_user, delete_user, set_user_enabled, user_traffic, admin_call, dashboard_requests,
    // stand.proxy/1
    configure, effective_defaults, endpoint,
    // stand.probe/1
    prepare, run, cleanup,
    // the host's own record of the instance: its HTTP calls, its processes that ended
    http_calls, ended_processes,
};

// "panel.create_user": the worker's method name, and the call's name in messages.
std::string_view abi_name(PortCall call);
// "stand.panel/1"; "" for the host's own records (http_calls, ended_processes).
std::string_view interface_of(PortCall call);

struct PortReply : isolation::WorkerReply {
    PortCall call = PortCall::install;
};

class PluginPort {
public:
    using Timeout = std::chrono::milliseconds;
    virtual ~PluginPort() = default;

    PortReply install(Timeout t) { return invoke(PortCall::install, {}, t); }
    PortReply start(Timeout t) { return invoke(PortCall::start, {}, t); }
    PortReply restart(Timeout t) { return invoke(PortCall::restart, {}, t); }
    PortReply stop(Timeout t) { return invoke(PortCall::stop, {}, t); }
    PortReply wipe(Timeout t) { return invoke(PortCall::wipe, {}, t); }
    PortReply facts(Timeout t) { return invoke(PortCall::facts, {}, t); }
    // {url, method, headers, ...}: the request that answers when the system is ready.
    PortReply readiness(Timeout t) { return invoke(PortCall::readiness, {}, t); }

    PortReply bootstrap(Timeout t) { return invoke(PortCall::bootstrap, {}, t); }
    // {id, subscription}
    PortReply create_user(const std::string& name, Timeout t) {
        return invoke(PortCall::create_user, {{"name", name}}, t);
    }
    PortReply delete_user(const std::string& id, Timeout t) { return invoke(PortCall::delete_user, {{"id", id}}, t); }
    PortReply set_user_enabled(const std::string& id, bool enabled, Timeout t) {
        return invoke(PortCall::set_user_enabled, {{"id", id}, {"enabled", enabled}}, t);
    }
    // {up_bytes, down_bytes, ...}
    PortReply user_traffic(const std::string& id, Timeout t) { return invoke(PortCall::user_traffic, {{"id", id}}, t); }
    PortReply admin_call(Timeout t) { return invoke(PortCall::admin_call, {}, t); }
    PortReply dashboard_requests(Timeout t) { return invoke(PortCall::dashboard_requests, {}, t); }

    PortReply configure(const boost::json::object& knobs, Timeout t) {
        return invoke(PortCall::configure, {{"knobs", knobs}}, t);
    }
    PortReply effective_defaults(Timeout t) { return invoke(PortCall::effective_defaults, {}, t); }
    // {scheme, host, port}
    PortReply endpoint(Timeout t) { return invoke(PortCall::endpoint, {}, t); }

    PortReply prepare(const std::string& job, const boost::json::object& params, Timeout t) {
        return invoke(PortCall::prepare, {{"job", job}, {"params", params}}, t);
    }
    PortReply run(const std::string& job, Timeout t) { return invoke(PortCall::run, {{"job", job}}, t); }
    PortReply cleanup(const std::string& job, Timeout t) { return invoke(PortCall::cleanup, {{"job", job}}, t); }

    PortReply http_calls(Timeout t) { return invoke(PortCall::http_calls, {}, t); }
    // host::EndedProcess as JSON (isolation::ended_processes_from_json()).
    PortReply ended_processes(Timeout t) { return invoke(PortCall::ended_processes, {}, t); }

    // Whether the instance still answers (a crashed or killed worker does not).
    virtual bool alive() const = 0;
    // The process that runs the plugin's own work (moved into the measured
    // box for a probe step); <= 0: none.
    virtual pid_t pid() const = 0;

protected:
    // One call: its arguments as the ABI's JSON, on the caller's thread.
    virtual isolation::WorkerReply invoke_hook(PortCall call, const boost::json::object& args, Timeout timeout) = 0;

private:
    PortReply invoke(PortCall call, const boost::json::object& args, Timeout t) {
        PortReply reply{invoke_hook(call, args, t)};
        reply.call = call;
        return reply;
    }
};

}  // namespace stand::scenario
