#include "quic/gnutls_init.hpp"

#include "quic/quic_error.hpp"

#include <gnutls/gnutls.h>

#include <string>

namespace stand::quic {

void ensure_gnutls() {
    // Never deinitialised: connections may end after static destructors begin.
    static const int result = gnutls_global_init();
    if (result < 0) throw QuicSetupError(std::string("gnutls_global_init: ") + gnutls_strerror(result));
}

}  // namespace stand::quic
