// Where a share link's host is, as stand compat sees it without a DNS query
// (a query could leave this machine, host/http/target_resolver.hpp): on this
// machine, elsewhere, or nowhere at all. A panel that finds no public
// address writes "none" or "none.sslip.io" into its links, REALITY links
// carry a decoy such as yahoo.com, and some panels put an info line into a
// link's host ("12.51--2026.12.07.time"): no client reaches those, so the
// checks name them "not an endpoint", as they name a link of a scheme they
// do not read.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stand::compat {

enum class LinkPlace {
    here,       // a loopback address, a localhost name, or a hosts-file name for one
    elsewhere,  // another address, a hosts-file name for one, or a *.test name (deliberate, served elsewhere)
    nowhere,    // a name that is no address, not in the hosts file, not under .test
};

struct LinkHost {
    LinkPlace place = LinkPlace::nowhere;
    std::vector<std::string> addresses;  // what the host is or names (none for `nowhere`)
    std::string why;                     // for elsewhere and nowhere: why, a phrase that fits "<host>: <why>"
};

// The host of a link (IPv6 without brackets), looked up in `hosts_file` only.
LinkHost place_of(const std::string& host, const std::filesystem::path& hosts_file = "/etc/hosts");

// The addresses `hosts_file` gives `name` (case-insensitively; comments and
// malformed lines skipped); none when the file cannot be read.
std::vector<std::string> hosts_file_addresses(std::string_view name, const std::filesystem::path& hosts_file);

}  // namespace stand::compat
