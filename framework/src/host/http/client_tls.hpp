// The TLS client contexts of stand.http/1 sessions: one per (extra CA file,
// verification) for the whole process, made on first need. Loading the
// system trust store costs about 45 ms of CPU and 2.4 MiB of the host's
// memory, and a session that only speaks http:// (readiness probes, most
// panel APIs here) never needs it. An SSL_CTX is shared safely between
// threads once set up; what differs per connection (SNI, host name check)
// is set on the connection's own stream (connection.cpp).
#pragma once

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace stand::host::http {

// Throws stand::cpp::Error(STAND_E_INVALID_ARGUMENT) naming the option
// 'ca_file' when that file cannot be loaded (and keeps no context for it).
std::shared_ptr<boost::asio::ssl::context> client_tls_context(const std::string& ca_file, bool insecure);

}  // namespace stand::host::http
