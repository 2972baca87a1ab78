#include "backend/backend_counters.hpp"

namespace stand::backend {

boost::json::object to_json(const BackendStats& stats) {
    return {{"accepted", stats.accepted},
            {"open", stats.open},
            {"requests", stats.requests},
            {"ws_sessions", stats.ws_sessions},
            {"ws_messages", stats.ws_messages},
            {"started_unix_ms", stats.started_unix_ms}};
}

BackendStats BackendCounters::snapshot() const noexcept {
    constexpr auto relaxed = std::memory_order_relaxed;
    BackendStats s;
    s.accepted = accepted.load(relaxed);
    s.open = open.load(relaxed);
    s.requests = requests.load(relaxed);
    s.ws_sessions = ws_sessions.load(relaxed);
    s.ws_messages = ws_messages.load(relaxed);
    s.started_unix_ms = started_unix_ms.load(relaxed);
    return s;
}

}  // namespace stand::backend
