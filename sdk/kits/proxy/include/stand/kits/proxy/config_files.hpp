// Files a proxy plugin writes and reads: its config files (key material with
// mode 0600) and the certificate files its knobs name.
#pragma once

#include <filesystem>
#include <string>

namespace stand_proxy_kit {

// Writes `text` to `file`, created or truncated; `private_file`: mode 0600
// (also when the file existed with another mode), else the umask's. Throws
// stand::cpp::Error(STAND_E_IO) naming `label` and the file.
void write_file(const std::filesystem::path& file, const std::string& text, bool private_file,
                const std::string& label);

// The whole file; throws stand::cpp::Error(STAND_E_NOT_FOUND/STAND_E_IO)
// "<label>: cannot read <what> <file>".
std::string read_file(const std::filesystem::path& file, const std::string& what, const std::string& label);

}  // namespace stand_proxy_kit
