// Mistgate's one-time setup as the adapter reads it: `mistgate setup` (or
// the server itself, when setup is combined with serve) prints an
// "Admin URL:" line and a "Setup link: ...#TOKEN" line; BeginSetup's
// otpauth:// URI names the TOTP period.
#pragma once

#include <string>

namespace stand_mistgate {

struct SetupOutput {
    std::string admin_url;
    std::string setup_token;  // the setup link's fragment
};

// The last "Admin URL:" and "Setup link:" of `text` (empty when absent).
SetupOutput parse_setup_output(const std::string& text);

// The "period" parameter of an otpauth:// URI, or 0 (absent, or not 1..3600).
unsigned otpauth_period(const std::string& uri);

}  // namespace stand_mistgate
