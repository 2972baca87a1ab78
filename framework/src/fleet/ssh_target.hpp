// A host of the fleet as the user names it: `NAME=ssh://user@address[:port]`
// (or the URL alone: the name is then the address, with _PORT unless the port is 22). Only this strict subset
// of an ssh URL is read: no password (keys only), no path, query or
// fragment; user, address and name are from small alphabets, so nothing in
// them can be taken as an ssh option or by a shell.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stand::fleet {

struct SshTarget {
    std::string name;     // [A-Za-z0-9_-]{1,64}: the host's name in a scenario and in reports
    std::string user;     // [A-Za-z0-9._-]{1,32}, not starting with '-'
    std::string address;  // an IPv4 or IPv6 literal (without brackets) or a host name
    std::uint16_t port = 22;

    // "ssh://user@address:port" (IPv6 in brackets).
    std::string url() const;
};

// Throws FleetError naming `arg` and what was expected.
SshTarget parse_host_arg(std::string_view arg);

}  // namespace stand::fleet
