// The product's plugin port: each call sent to the plugin's worker process.
#pragma once

#include "isolation/plugin_worker.hpp"
#include "scenario/steps/plugin_port.hpp"

namespace stand::scenario {

class WorkerPort final : public PluginPort {
public:
    explicit WorkerPort(isolation::PluginWorker& worker) : worker_(worker) {}
    bool alive() const override { return worker_.alive(); }
    pid_t pid() const override { return worker_.pid(); }

protected:
    isolation::WorkerReply invoke_hook(PortCall call, const boost::json::object& args, Timeout timeout) override;

private:
    isolation::PluginWorker& worker_;
};

}  // namespace stand::scenario
