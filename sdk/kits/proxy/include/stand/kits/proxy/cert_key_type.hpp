// The key type of a PEM certificate, as a report names it.
#pragma once

#include <string>

namespace stand_proxy_kit {

// "EC P-256", "RSA 2048", "Ed25519", ...; throws std::runtime_error naming
// the file when it cannot be read as a PEM certificate.
std::string cert_key_type(const std::string& cert_file);

}  // namespace stand_proxy_kit
