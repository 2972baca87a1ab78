#include "cli/deferred_gnutls.hpp"

#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace stand::cli {
namespace {

constexpr const char* kGnutlsSwitch = "GNUTLS_NO_IMPLICIT_INIT";
constexpr const char* kMarker = "STAND_GNUTLS_DEFERRED";  // set only between the two starts

}  // namespace

void defer_gnutls_init(char** argv) noexcept {
    if (std::getenv(kMarker) != nullptr) {
        ::unsetenv(kMarker);
        ::unsetenv(kGnutlsSwitch);
        return;
    }
    if (std::getenv(kGnutlsSwitch) != nullptr) return;  // the user's own choice stays, and is inherited
    // The plugin worker runs plugin code, which may use GnuTLS itself.
    if (argv[0] != nullptr && argv[1] != nullptr && std::strcmp(argv[1], "__worker") == 0) return;
    ::setenv(kMarker, "1", 1);
    ::setenv(kGnutlsSwitch, "1", 1);
    ::execv("/proc/self/exe", argv);
    ::unsetenv(kMarker);  // no re-exec (no /proc?): this start goes on as it is
    ::unsetenv(kGnutlsSwitch);
}

}  // namespace stand::cli
