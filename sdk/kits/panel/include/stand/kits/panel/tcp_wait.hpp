// Whether something accepts connections: on a TCP port, for a core the panel
// restarts on its own (3x-ui restarts Xray when its template changes), or on
// a unix socket; and waiting, inside an adapter, until it does.
#pragma once

#include <string>

namespace stand_panel_kit {

// One connection attempt to host:port (a numeric IPv4 or IPv6 address).
bool accepts_tcp(const std::string& address, int port);
// The same for "host:port" ("[::1]:80" for IPv6); false when it does not parse.
bool accepts_tcp(const std::string& host_port);
// One connection attempt to a unix stream socket.
bool accepts_unix(const std::string& path);

// Connects to host:port every 50 ms until a connection is accepted or
// `timeout_ms` passes. Returns whether one was accepted.
bool wait_tcp_listening(const std::string& address, int port, int timeout_ms);

}  // namespace stand_panel_kit
