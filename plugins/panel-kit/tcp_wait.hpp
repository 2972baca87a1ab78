// Waiting, inside an adapter, until something listens on a TCP port: for a
// core the panel restarts on its own (3x-ui restarts Xray when its template
// changes), before the next call needs it.
#pragma once

#include <string>

namespace stand_panel_kit {

// Connects to host:port (a numeric address) every 50 ms until a connection
// is accepted or `timeout_ms` passes. Returns whether one was accepted.
bool wait_tcp_listening(const std::string& address, int port, int timeout_ms);

}  // namespace stand_panel_kit
