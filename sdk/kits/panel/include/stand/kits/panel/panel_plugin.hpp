// The one base of the panel adapters (stand.lifecycle/1 + stand.panel/1):
// PanelLifecycle (panel_lifecycle.hpp: the data dir, the declared processes
// or docker compose, install/start/stop/restart/wipe/facts and their hooks)
// and the panel calls, each of which runs the adapter's hook below. A panel
// adapter is its config, its deployment (launch()), readiness() and these
// hooks; its admin calls live in a <panel>_api of their own.
//
// One name per operation, as Envoy's FactoryBase does it
// (createFilterFactoryFromProto() runs createFilterFactoryFromProtoTyped()):
// the call keeps the ABI's name (ext/panel.h, ext/lifecycle.h) and its hook
// is that name + "_hook": create_user() runs create_user_hook(), wipe()
// wipe_hook().
//
// Before each panel call, and when one fails, the declared processes are
// looked at: one that has died (the database, a node) is named, with its
// exit status and the end of its log, instead of the symptom the panel
// showed (a 500, a refused connection). Every call but bootstrap needs a
// bootstrap of this instance first (Error(STAND_E_BAD_STATE) "<panel>: <call>
// before bootstrap"); wipe() asks for a new one.
//
// Threads: the host calls an instance from one thread at a time (sdk
// stand/plugin.h); hooks are called from those calls only.
#pragma once

#include <stand/kits/panel/panel_lifecycle.hpp>
#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <functional>
#include <vector>
#include <string>

namespace stand_panel_kit {

// What a client fetches for a subscription URL, as subscription_request()
// returns it: GET with a client's User-Agent (v2rayN's: panels answer it with
// share links), `headers` added.
boost::json::object subscription_get(const std::string& url, const boost::json::object& headers = {});

// One request a panel's own admin web UI repeats while one of its pages is
// open (dashboard_requests, ext/panel.h): the page, a unique name
// ([a-z0-9_]), the UI's own period (from the panel's source), and the
// request with the signed-in session a browser would send.
struct DashboardRequest {
    std::string page;
    std::string name;
    double every_s = 0;
    std::string method = "GET";
    std::string url;  // absolute
    boost::json::object headers;
    std::string body;
};

class PanelPlugin : public stand::cpp::Instance, public PanelLifecycle, public stand::cpp::Panel {
public:
    // stand.panel/1 (sdk/include/stand/ext/panel.h says what each returns).
    void bootstrap() final;
    boost::json::object create_user(const std::string& name) final;
    void delete_user(const std::string& user_id) final;
    void admin_call() final;
    boost::json::object subscription_request(const std::string& user_id) final;
    void set_user_enabled(const std::string& user_id, bool enabled) final;
    void set_user_quota(const std::string& user_id, std::uint64_t quota_bytes) final;
    boost::json::object user_traffic(const std::string& user_id) final;
    boost::json::object dashboard_requests() final;
    stand_result wipe() override;

protected:
    PanelPlugin(const stand::cpp::Host& host, std::string panel) : PanelLifecycle(host, std::move(panel)) {}

    // --- hooks: the panel's admin calls, each <call>_hook()
    // bootstrap: the panel's one-time setup, idempotent (a second run, a
    // second instance on the same data dir, a restarted panel).
    virtual void bootstrap_hook() = 0;
    // create_user: {"name", "id", "subscription": {request}, ["tunnel_auth"]};
    // a name the panel has already is an error (the panel's answer, or the
    // adapter's own check where the panel allows duplicates).
    virtual boost::json::object create_user_hook(const std::string& name) = 0;
    // delete_user: STAND_E_NOT_FOUND for an unknown id.
    virtual void delete_user_hook(const std::string& user_id) = 0;
    // admin_call: one cheap authenticated call (a list of one user).
    virtual void admin_call_hook() = 0;
    // subscription_request: the request a client makes for the user's links.
    virtual boost::json::object subscription_request_hook(const std::string& user_id) = 0;
    // ABI 1.3, each Error(STAND_E_UNSUPPORTED) naming the panel unless overridden.
    // set_user_enabled: the panel's own switch (an enable flag, a "disabled" status).
    virtual void set_user_enabled_hook(const std::string& user_id, bool enabled);
    // set_user_quota: the user's traffic quota in bytes, 0 for none.
    virtual void set_user_quota_hook(const std::string& user_id, std::uint64_t quota_bytes);
    // user_traffic: {"total_bytes", ["up_bytes", "down_bytes"]} as the admin API counts them now.
    virtual boost::json::object user_traffic_hook(const std::string& user_id);
    // ABI 1.4, unsupported unless overridden. dashboard_requests: what the
    // admin UI's pages poll, each with a session of its own (log in afresh).
    virtual std::vector<DashboardRequest> dashboard_requests_hook();

private:
    boost::json::object guarded(const char* operation, const std::function<boost::json::object()>& call,
                                bool needs_bootstrap = true);

    bool bootstrapped_ = false;
};

}  // namespace stand_panel_kit
