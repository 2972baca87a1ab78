// The plugin port of the steps' unit tests: every call recorded in order
// with its arguments, answered by a script (ok with no output by default),
// and a hook run before each call (where the SIGINT tests set the flag).
#pragma once

#include "scenario/steps/plugin_port.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stand::test {

using scenario::PortCall;

inline isolation::WorkerReply reply_ok(boost::json::value output = nullptr) {
    isolation::WorkerReply r;
    r.output = std::move(output);
    return r;
}

// The plugin answered with an error (code < 0, e.g. STAND_E_BAD_RESPONSE).
inline isolation::WorkerReply reply_error(int code, std::string message) {
    isolation::WorkerReply r;
    r.code = code;
    r.error = std::move(message);
    return r;
}

// The worker did not answer (crashed, hung, interrupted).
inline isolation::WorkerReply reply_failure(isolation::WorkerReply::Failure failure, std::string message) {
    isolation::WorkerReply r;
    r.failure = failure;
    r.error = std::move(message);
    return r;
}

class FakePort final : public scenario::PluginPort {
public:
    struct Call {
        PortCall call;
        boost::json::object args;
        Timeout timeout{};  // what the step bounded the call by
    };
    using Answer = std::function<isolation::WorkerReply(const boost::json::object& args)>;

    // The answer to every later call of `call`.
    void answer(PortCall call, Answer a) { answers_[call] = std::move(a); }
    void answer(PortCall call, boost::json::value output) {
        answers_[call] = [output](const boost::json::object&) { return reply_ok(output); };
    }
    // Run before each call, with the number of calls made before it.
    std::function<void(std::size_t index, PortCall call)> before_call;

    // Once `flag` is set, every call answers as the worker does when the
    // run is interrupted (Failure::kInterrupted), the script aside.
    void interrupt_when(const std::atomic<bool>& flag) { interrupted_ = &flag; }

    const std::vector<Call>& calls() const { return calls_; }
    std::size_t count(PortCall call) const {
        return static_cast<std::size_t>(
            std::count_if(calls_.begin(), calls_.end(), [call](const Call& c) { return c.call == call; }));
    }
    std::vector<boost::json::object> args_of(PortCall call) const {
        std::vector<boost::json::object> out;
        for (const auto& c : calls_)
            if (c.call == call) out.push_back(c.args);
        return out;
    }
    // The calls made, in order, without their arguments.
    std::vector<PortCall> call_sequence() const {
        std::vector<PortCall> out;
        for (const auto& c : calls_) out.push_back(c.call);
        return out;
    }

    bool alive_ = true;
    pid_t pid_ = -1;
    bool alive() const override { return alive_; }
    pid_t pid() const override { return pid_; }

protected:
    isolation::WorkerReply invoke_hook(PortCall call, const boost::json::object& args, Timeout timeout) override {
        if (before_call) before_call(calls_.size(), call);
        calls_.push_back({call, args, timeout});
        if (interrupted_ != nullptr && interrupted_->load())
            return reply_failure(isolation::WorkerReply::Failure::kInterrupted, "interrupted");
        if (auto it = answers_.find(call); it != answers_.end()) return it->second(args);
        return reply_ok();
    }

private:
    std::map<PortCall, Answer> answers_;
    std::vector<Call> calls_;
    const std::atomic<bool>* interrupted_ = nullptr;
};

}  // namespace stand::test
