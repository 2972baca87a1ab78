// Whether a Hysteria 2 server behind a link serves: the QUIC handshake and
// the auth request (status 233), then a clean close. How the compat suite
// tells a core that serves a UDP link from one that only lists it.
#pragma once

#include "hysteria/hysteria_link.hpp"

#include <chrono>
#include <string>

namespace stand::tunnel {

// "" when the server authenticated the link's auth within `timeout`, else
// why not (refused, no answer, the certificate, ...). Throws TunnelSpecError
// for a link that cannot be tried (RemoteServerError: a server not on this
// machine unless allow_remote; a bad pin).
std::string hysteria_auth_problem(const hysteria::HysteriaLink& link, bool allow_remote,
                                  std::chrono::milliseconds timeout);

}  // namespace stand::tunnel
