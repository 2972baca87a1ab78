#include "isolation/worker_main.hpp"

#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"
#include "isolation/line_channel.hpp"
#include "loader/plugin_loader.hpp"
#include "text/secrets.hpp"

#include <atomic>
#include <csignal>
#include <memory>

namespace stand::isolation {
namespace {

std::atomic<host::PluginHost*> g_cancel_target{nullptr};
std::atomic<bool> g_cancel_early{false};  // SIGUSR1 before the instance's host existed (an interrupt during load)

void on_cancel_signal(int) {
    if (auto* h = g_cancel_target.load()) h->cancel();
    else g_cancel_early.store(true);
}

host::HostConfig host_config_from(const boost::json::object& m, LineChannel& channel) {
    host::HostConfig config;
    config.run_dir = std::string(m.at("run_dir").as_string());
    config.allow_remote_targets = m.at("allow_remote").as_bool();
    if (auto* boxes = m.if_contains("boxes"))
        for (const auto& [name, dirs] : boxes->as_object())
            for (const auto& d : dirs.as_array()) config.boxes[std::string(name)].emplace_back(std::string(d.as_string()));
    config.log = [&channel](int level, const std::string&, const std::string& message) {
        channel.send({{"type", "log"}, {"level", level}, {"message", message}});
    };
    config.progress = [&channel](const std::string&, double fraction, const std::string& message) {
        channel.send({{"type", "progress"}, {"fraction", fraction}, {"message", text::secrets().scrub(message)}});
    };
    config.secret = [&channel](const std::string& secret) { channel.send({{"type", "secret"}, {"value", secret}}); };
    return config;
}

boost::json::value output_value(const std::string& text) {
    if (text.empty()) return nullptr;
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec);
    return ec ? boost::json::value(text) : v;
}

boost::json::array http_calls(host::PluginHost& h) {
    boost::json::array calls;
    for (const auto& c : h.http().calls())
        calls.push_back({{"label", c.label}, {"method", c.method}, {"url", text::secrets().scrub(c.url)}, {"status", c.status},
                         {"error", c.error}, {"elapsed_ms", c.elapsed_ms}, {"retry_waits", c.retry_waits},
                         {"waited_ms", c.waited_ms}});
    return calls;
}

}  // namespace

int run_worker_main() {
    std::signal(SIGUSR1, on_cancel_signal);
    std::signal(SIGINT, SIG_IGN);  // the host decides what Ctrl-C means
    LineChannel channel(kWorkerChannelFd);
    std::shared_ptr<loader::LoadedPlugin> plugin;
    std::unique_ptr<host::PluginHost> host_ptr;
    stand_instance* instance = nullptr;

    boost::json::object m;
    while (channel.receive(m, std::chrono::milliseconds(-1)) == LineChannel::Status::kMessage) {
        boost::json::object reply{{"type", "reply"}, {"id", m.contains("id") ? m.at("id") : boost::json::value(0)}};
        try {
            std::string op(m.at("op").as_string());
            if (op == "create") {
                plugin = loader::load_plugin(std::string(m.at("plugin").as_string()));
                host_ptr = std::make_unique<host::PluginHost>(plugin->id, host_config_from(m, channel));
                g_cancel_target.store(host_ptr.get());
                if (g_cancel_early.load()) host_ptr->cancel();
                std::string config(m.at("config").as_string());
                char message[2048] = {0};
                stand_error err{sizeof(stand_error), sizeof(message), message};
                stand_result r = plugin->entry.create(host_ptr->get(), config.data(), config.size(), &instance, &err);
                reply["result"] = r;
                if (r < 0) reply["error"] = message[0] ? message : stand_result_name(r);
            } else if (op == "call") {
                if (instance == nullptr) throw std::invalid_argument("no instance: create first");
                boost::json::object args = m.contains("args") ? m.at("args").as_object() : boost::json::object{};
                auto outcome = call_interface(*plugin, instance, std::string(m.at("method").as_string()), args);
                reply["result"] = outcome.code;
                if (outcome.code < 0) reply["error"] = outcome.error;
                reply["output"] = output_value(outcome.output);
            } else if (op == "http_calls") {
                reply["result"] = 0;
                reply["output"] = host_ptr ? http_calls(*host_ptr) : boost::json::array{};
            } else if (op == "ended_processes") {
                reply["result"] = 0;
                boost::json::array ended;
                if (host_ptr)
                    for (const auto& e : host_ptr->processes().ended()) ended.push_back(host::to_json(e));
                reply["output"] = std::move(ended);
            } else if (op == "destroy") {
                if (instance) plugin->entry.destroy(instance);
                instance = nullptr;
                g_cancel_target.store(nullptr);
                host_ptr.reset();
                reply["result"] = 0;
                channel.send(reply);
                return 0;
            } else {
                throw std::invalid_argument("unknown op '" + op + "'");
            }
        } catch (const loader::LoadError& e) {
            reply["result"] = STAND_E_INVALID_ARGUMENT;
            reply["error"] = std::string("refused ") + e.what();
        } catch (const std::exception& e) {
            reply["result"] = STAND_E_INTERNAL;
            reply["error"] = std::string("worker: ") + e.what();
        }
        if (!channel.send(reply)) return 1;
    }
    if (instance) plugin->entry.destroy(instance);
    return 0;
}

}  // namespace stand::isolation
