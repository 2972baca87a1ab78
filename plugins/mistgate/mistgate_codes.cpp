#include "mistgate_codes.hpp"

#include "mistgate_api.hpp"
#include "mistgate_state.hpp"

#include <stand/kits/panel/totp.hpp>

#include <stdexcept>

namespace stand_mistgate {

using stand::cpp::Error;

std::string next_code(const stand::cpp::Host& host, const std::filesystem::path& state_file) {
    for (;;) {
        auto st = load_state(state_file);
        if (st.totp_secret.empty())
            throw Error(STAND_E_BAD_STATE, "mistgate: the owner's TOTP secret is not known (setup did not run "
                                           "through this adapter)");
        const auto step = static_cast<std::int64_t>(st.totp_step);
        const auto now_ms = static_cast<std::int64_t>(host.wall_ns() / 1000000);
        const std::int64_t counter = now_ms / 1000 / step;
        if (counter > st.totp_last_step) {
            std::vector<std::uint8_t> key;
            try {
                key = stand_panel_kit::base32_decode(st.totp_secret);
            } catch (const std::invalid_argument& e) {
                throw Error(STAND_E_BAD_RESPONSE, std::string("mistgate: the TOTP secret is not base32: ") + e.what());
            }
            st.totp_last_step = counter;
            save_state(state_file, st);
            return stand_panel_kit::totp_code(key, static_cast<std::uint64_t>(counter * step), st.totp_step);
        }
        // 150 ms into the next step, so both clocks agree it has begun
        try {
            host.sleep_ms((st.totp_last_step + 1) * step * 1000 + 150 - now_ms);
        } catch (const Error&) {
            throw Error(STAND_E_CANCELLED, "mistgate: cancelled while waiting for the next TOTP step");
        }
    }
}

}  // namespace stand_mistgate
