#include "mistgate_dashboard.hpp"

namespace stand_mistgate {

std::vector<stand_panel_kit::DashboardRequest> overview_polls(Client& c) {
    constexpr double kPollS = 10;  // lib/queries.ts pollMs, lib/integrations.ts pollMs
    const boost::json::object headers{{"Cookie", c.browser_cookie()},
                                      {"Content-Type", "application/json"},
                                      {"Connect-Protocol-Version", "1"}};
    const auto poll = [&](const char* name, const char* procedure, const char* body) {
        return stand_panel_kit::DashboardRequest{"overview", name, kPollS, "POST",
                                                 c.procedure_url(procedure), headers, body};
    };
    return {poll("fleet_overview", "FleetService/Overview", R"({"range":"OVERVIEW_RANGE_24H","eventLimit":6})"),
            poll("user_count", "UserService/ListUsers", R"({"pageSize":1})"),
            poll("nodes", "NodeService/ListNodes", "{}"),
            poll("profiles", "ProfileService/ListProfiles", "{}"),
            poll("awaiting_approvals", "ApprovalService/ListApprovals", R"({"awaitingOnly":true})")};
}

}  // namespace stand_mistgate
