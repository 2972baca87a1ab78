// Path normalisation of recorded panel exchanges (tests/data/real-panels/):
// what changes from run to run (ids, the suite's user names, a secret base
// path) becomes a placeholder, so that two runs of the same flow compare.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace stand::compat {

struct PathNames {
    std::set<std::string> user_names;  // the names the compat suite chose ("compat1", "compat-dup", ...)
    // Ids and subscription tokens the panel returned for the suite's users: {id}
    // whatever their alphabet (a 16-character nanoid has no digit one time in 15).
    std::set<std::string> user_ids;
    // The panel's secret path prefixes (facts "secret_path_prefix") ("/Xa9.../"; Mistgate has two: its admin
    // path and its subscription prefix), empty when not reported.
    std::vector<std::string> base_paths;
};

// "/{base}" for a base path prefix, then per segment: a user name -> "{name}";
// a user id or token, all digits, a UUID, 22+ base64url characters, or 8+
// hex/base64url characters containing a digit -> "{id}".
std::string normalise_path(std::string_view path, const PathNames& names);

// The per-user segments of the subscription URLs the panel returned: those that
// differ between users, or with a single user its URL's last non-empty segment.
std::set<std::string> subscription_tokens(const std::vector<std::string>& subscription_urls);

// A label the host made up from the raw path ("GET /x/42") gets the normalised
// path too; a label the caller chose stays as it is.
std::string normalise_label(const std::string& label, const std::string& method, const std::string& raw_path,
                            const std::string& normalised_path);

}  // namespace stand::compat
