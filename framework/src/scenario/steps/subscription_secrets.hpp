// What of a subscription fetch is a secret: its URL's path and query (the
// bearer token of most panels) and the values of the headers that may carry
// a credential. Marked in the process's registry (text/secrets.hpp) when a
// user is created, so no run file, log or report shows them.
#pragma once

#include <boost/json/object.hpp>

#include <string_view>

namespace stand::scenario::steps {

// True for a header that describes the client or the hop, never its
// credential (User-Agent, Accept*, X-Forwarded-*, Forwarded, X-Real-IP,
// Host, ...), case-insensitively.
bool describes_client(std::string_view header);

// Marks `subscription`'s ({url, headers}) secrets.
void mark_subscription_secrets(const boost::json::object& subscription);

}  // namespace stand::scenario::steps
