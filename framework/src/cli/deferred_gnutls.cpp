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
    // The binary's own path, not /proc/self/exe: the process's name (comm, what ps and pgrep show) is
    // the basename of the path executed.
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return;
    self[n] = '\0';
    ::setenv(kMarker, "1", 1);
    ::setenv(kGnutlsSwitch, "1", 1);
    ::execv(self, argv);
    ::unsetenv(kMarker);  // no re-exec (no /proc?): this start goes on as it is
    ::unsetenv(kGnutlsSwitch);
}

}  // namespace stand::cli
