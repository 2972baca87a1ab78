// The host's RSS without GnuTLS's start-up (about 1 MiB: p11-kit, its
// tables), which only QUIC needs: `stand` re-executes itself once with
// GNUTLS_NO_IMPLICIT_INIT=1 (GnuTLS's documented switch for its library
// constructor), and quic/ initialises GnuTLS when it first makes a TLS
// context (quic/gnutls_init.hpp). The second start removes the variable
// again, so that the programs the host starts (panels, proxies, plugin
// workers) initialise GnuTLS as they always do.
#pragma once

namespace stand::cli {

// Call first in main(). Returns only in the process that goes on: after the
// re-exec, or at once when the user set GNUTLS_NO_IMPLICIT_INIT, or when the
// re-exec failed (then GnuTLS simply initialised itself as usual).
void defer_gnutls_init(char** argv) noexcept;

}  // namespace stand::cli
