// `stand backend`: the built-in backend that reverse proxies are measured
// in front of (backend/backend_server.hpp), run until SIGTERM or SIGINT.
#include "backend/backend_error.hpp"
#include "backend/backend_server.hpp"
#include "backend/host_port.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "host/http/target_resolver.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <csignal>
#include <iostream>
#include <optional>

#include <unistd.h>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand backend [options]

The backend that reverse proxies are measured in front of. HTTP/1.1: every
GET, HEAD and POST (any path but the websocket path) gets 200, text/plain and
a fixed body; keep-alive as the client asks, pipelining allowed. Websocket:
an upgrade at the websocket path echoes every message back. It is also the
tunnel sink: GET /small answers 1 KiB with Content-Length, GET /zero streams
zeros until the client closes.

  --listen HOST:PORT    data listener (default 127.0.0.1:0: a free port)
  --control HOST:PORT   control listener (default 127.0.0.1:0): GET /stats
                        answers the counters as JSON and is never counted
  --body-bytes N        response body size in bytes (default 64)
  --threads N           event-loop threads (default 1)
  --ws-path PATH        websocket echo path (default /ws)
  --allow-remote        allow listen addresses other than loopback
  -h, --help            this text

HOST is an IP address ([::1] for IPv6) or localhost. Once both listeners are
open, one JSON line goes to stdout:
  {"listen":"127.0.0.1:PORT","control":"127.0.0.1:PORT","ws_path":"/ws",
   "body_bytes":64,"threads":1,"pid":N}
Counters (GET /stats and the last line): accepted, open, requests,
ws_sessions, ws_messages, started_unix_ms.
SIGTERM or SIGINT stops it; the final counters go to stdout as one more JSON
line.

Exit: 0 stopped by a signal, 1 a listener could not be opened, 2 usage error.
)";

std::uint64_t parse_number(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v < min || v > max)
        throw UsageError("--" + flag + ": expected an integer in [" + std::to_string(min) + ", " +
                         std::to_string(max) + "], got '" + text + "'");
    return v;
}

boost::asio::ip::tcp::endpoint listener_address(const Args& args, const std::string& flag,
                                                const boost::asio::ip::tcp::endpoint& fallback) {
    const auto text = args.value(flag);
    if (!text) return fallback;
    boost::asio::ip::tcp::endpoint endpoint;
    try {
        endpoint = backend::parse_host_port(*text);
    } catch (const std::invalid_argument& e) {
        throw UsageError("--" + flag + ": " + e.what());
    }
    if (!args.flag("allow-remote") && !host::http::is_loopback(endpoint.address()))
        throw UsageError("--" + flag + " " + *text +
                         ": not a loopback address; the backend listens on loopback only unless --allow-remote");
    return endpoint;
}

backend::BackendOptions options_from(const Args& args) {
    backend::BackendOptions options;
    options.listen = listener_address(args, "listen", options.listen);
    options.control = listener_address(args, "control", options.control);
    if (auto v = args.value("body-bytes"))
        options.body_bytes = parse_number("body-bytes", *v, 0, backend::kMaxBodyBytes);
    if (auto v = args.value("threads"))
        options.threads = static_cast<unsigned>(parse_number("threads", *v, 1, backend::kMaxThreads));
    if (auto v = args.value("ws-path")) {
        if (v->empty() || v->front() != '/')
            throw UsageError("--ws-path: expected a path starting with '/', got '" + *v + "'");
        options.ws_path = *v;
    }
    return options;
}

void print_line(const boost::json::object& object) {
    std::cout << boost::json::serialize(object) << std::endl;  // flushed: a parent process waits for it
}

}  // namespace

int run_backend(const std::vector<std::string>& argv) {
    Args args("backend", argv,
              {{"help"}, {"allow-remote"}, {"listen", true}, {"control", true}, {"body-bytes", true},
               {"threads", true}, {"ws-path", true}});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    args.expect_positionals(0, 0, "no arguments");
    const backend::BackendOptions options = options_from(args);

    // Handlers first: a parent may signal as soon as it has read the ready line.
    boost::asio::io_context signal_context;
    boost::asio::signal_set stop_signals(signal_context, SIGTERM, SIGINT);

    std::optional<backend::BackendServer> server;
    try {
        server.emplace(options);
    } catch (const backend::BackendError& e) {
        std::cerr << "stand backend: " << e.what() << "\n";
        return kExitFailed;
    }
    print_line({{"listen", backend::format_host_port(server->listen_endpoint())},
                {"control", backend::format_host_port(server->control_endpoint())},
                {"ws_path", options.ws_path},
                {"body_bytes", options.body_bytes},
                {"threads", options.threads},
                {"pid", ::getpid()}});

    stop_signals.async_wait([](const boost::system::error_code&, int) {});
    signal_context.run();
    server->stop();
    print_line(backend::to_json(server->stats()));
    return kExitOk;
}

}  // namespace stand::cli
