// What Mistgate's admin UI (web/src at 695c839) polls while its Overview, the
// page it opens on, is visible: every 10 s (web/src/lib/queries.ts pollMs;
// react-query pauses in a hidden tab), as connect-web sends unary calls
// (web/src/lib/api.ts: the JSON format, POST <admin url>api/<procedure>) with
// the session cookie of a sign-in of its own:
//   FleetService/Overview {range 24H, eventLimit 6}  the page (screens/overview.tsx),
//       and the shell's counts and health pill (lib/fleet.ts), the same query;
//   UserService/ListUsers {pageSize 1}               the sidebar's user count and the
//       first-run checklist (lib/queries.ts userCountQuery, screens/first-run.tsx);
//   NodeService/ListNodes {}                          the checklist (nodesQuery);
//   ProfileService/ListProfiles {}                    the checklist (screens/users/rpc.ts
//       profileListQuery);
//   ApprovalService/ListApprovals {awaitingOnly}      the sidebar's approvals badge, for
//       the owner (lib/integrations.ts awaitingQuery).
// protojson leaves zero values out of a request, so the fields at 0 are not sent.
#pragma once

#include "mistgate_api.hpp"

#include <stand/kits/panel/panel_plugin.hpp>

#include <vector>

namespace stand_mistgate {

std::vector<stand_panel_kit::DashboardRequest> overview_polls(Client& c);

}  // namespace stand_mistgate
