// What the adapter remembers about one Mistgate data dir, in a 0600 JSON
// file inside it (so wipe() forgets it with the panel's data): the admin URL
// and setup token from `mistgate setup`, the owner's TOTP secret and the last
// TOTP step used (a code works once; every instance of the adapter reads it
// before it computes a code), the ids bootstrap created, whether the node
// agent enrolled, and the probe user whose link tells that the node serves.
// Secrets in it are never logged.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace stand_mistgate {

struct State {
    std::string admin_url;    // as `setup` printed it (host not yet rewritten)
    std::string setup_token;  // from the setup link's fragment; "" once used
    std::optional<double> setup_s;  // seconds `mistgate setup` took (absent: setup combined with serve)
    bool owner = false;             // FinishSetup succeeded
    std::string totp_secret;        // base32
    unsigned totp_step = 30;        // seconds
    std::int64_t totp_last_step = -1;  // counter of the last code sent
    std::string profile_id, node_id, inbound_id, group_id;
    bool node_enrolled = false;     // `<node_command> enroll` succeeded for node_id
    std::string probe_user_id;      // the user "stand-probe", whose link shows a serving node
    std::string probe_url;          // its subscription URL (a secret)
};

// The state in `file`, or a default State when the file does not exist.
// Throws stand::cpp::Error(STAND_E_IO) when it exists but is not readable JSON.
State load_state(const std::filesystem::path& file);
// Writes atomically (temp file with mode 0600, then rename).
void save_state(const std::filesystem::path& file, const State& state);

// What of `state` facts() reports: the secret path prefixes (the admin path
// and the subscription prefix /<prefix>/), setup_s, owner_set_up,
// totp_step_s and the ids bootstrap created.
void add_state_facts(boost::json::object& facts, const State& state);

}  // namespace stand_mistgate
