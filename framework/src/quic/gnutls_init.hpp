// GnuTLS initialises itself in a library constructor unless the process
// starts with GNUTLS_NO_IMPLICIT_INIT=1 (the `stand` binary arranges that:
// cli/deferred_gnutls.hpp), which costs the host about 1 MiB of RSS in runs
// that never speak QUIC. Everything in quic/ that touches GnuTLS calls this
// first.
#pragma once

namespace stand::quic {

// gnutls_global_init() once per process (thread-safe); throws QuicSetupError
// when it fails. Without GNUTLS_NO_IMPLICIT_INIT it only takes a reference.
void ensure_gnutls();

}  // namespace stand::quic
