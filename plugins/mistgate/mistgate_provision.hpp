// Mistgate's bootstrap as named steps, each idempotent and recorded in the
// state file (mistgate_state.hpp), so a second bootstrap or a second
// instance picks up where the first stopped: the owner (BeginSetup /
// FinishSetup with a TOTP code; a refused setup link runs setup again for a
// fresh one when setup is a command of its own), a hysteria2 profile with a
// self-signed certificate, a node enrollment, an inbound, the group
// "everyone", and the probe user whose link shows that a node serves. Then
// the node agent is enrolled and started, and bootstrap waits until the probe
// link has a server line (Mistgate serves empty subscriptions until a node
// has connected and reported its certificate pin).
#pragma once

#include "mistgate_api.hpp"
#include "mistgate_node.hpp"
#include "mistgate_state.hpp"

#include <stand/kits/panel/admin_api.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace stand_mistgate {

// The node agent as the adapter offers it to bootstrap.
struct NodeAgent {
    bool configured = false;                          // config.node_command is not []
    std::function<void(const InstallCommand&)> enroll;  // `<node_command> enroll ...` to its end
    std::function<void()> start;                        // `<node_command> run` in the box
    int ready_timeout_s = 120;
    std::string log;  // where the messages send the user
};

// Where the setup lines come from.
struct Setup {
    std::function<std::string()> command;  // runs `mistgate setup`, returns its output; empty: combined with serve
    std::filesystem::path serve_log;       // where the server prints them when combined
};

class Provisioning {
public:
    // `totp_step`: the period when the panel names none.
    Provisioning(const stand::cpp::Host& host, std::filesystem::path state_file, std::string panel_url, Setup setup,
                 unsigned totp_step, NodeAgent node);

    // Runs `mistgate setup` and keeps what it printed: the admin URL, a
    // fresh setup token and (the first time) how long it took.
    void run_setup();
    // The state with the admin URL (from the serve log when setup is
    // combined with serve); Error(STAND_E_BAD_STATE) before a setup ran.
    State admin_state();

    // Every step; returns the group users join.
    std::string run(Client& c);
    // A URL the panel returned (its public URL may say "localhost"), on the panel's own origin.
    std::string absolute(const std::string& url) const;
    // GetSubscriptionLink (needs a step-up) for a user: its absolute URL;
    // Error(STAND_E_NOT_FOUND) for an unknown id.
    std::string link_of(Client& c, const std::string& user_id);
    // The state with changes, saved (0600) and its secrets marked.
    void update_state(const std::function<void(State&)>& change) const;

private:
    void set_up_owner(Client& c, const State& st);
    boost::json::value create_enrollment(Client& c, boost::json::object body);
    std::string hysteria2_settings(Client& c);
    std::string probe_url(Client& c, const std::string& group);
    bool probe_has_lines(const std::string& url);
    void connect_node(Client& c, const std::string& group);

    stand::cpp::Host host_;
    std::filesystem::path state_file_;
    std::string panel_url_;
    Setup setup_;
    unsigned totp_step_;
    NodeAgent node_;
    std::optional<InstallCommand> install_;  // of the enrollment created here, until used
    std::unique_ptr<stand_panel_kit::AdminApi> probe_api_;
};

// The setup token, the TOTP secret and the secret admin path of `st`: the host never writes them.
void mark_secrets(const stand::cpp::Host& host, const State& st);

}  // namespace stand_mistgate
