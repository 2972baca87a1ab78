// JSON written for people to read: config files a proxy loads and an
// operator opens (envoy.json, traefik.yml).
#pragma once

#include <boost/json.hpp>

#include <string>

namespace stand_proxy_kit {

// Two-space indentation, one member per line, ": " after keys, a final
// newline. With ": " and ", " every JSON text this writes is also YAML
// 1.2 flow style, so it can be handed to a proxy that reads YAML.
std::string pretty_json(const boost::json::value& v);

}  // namespace stand_proxy_kit
