#include "scenario/steps/worker_port.hpp"

namespace stand::scenario {

isolation::WorkerReply WorkerPort::invoke_hook(PortCall call, const boost::json::object& args, Timeout timeout) {
    switch (call) {
    case PortCall::http_calls: return worker_.http_calls(timeout);
    case PortCall::ended_processes: return worker_.ended_processes(timeout);
    default: return worker_.call(std::string(abi_name(call)), args, timeout);
    }
}

}  // namespace stand::scenario
