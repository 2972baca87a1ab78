// The HTTP/3 field section of link k of the spec: the same headers, in the same
// precedence, as the HTTP/1.1 request build_request() writes, with Host as
// :authority and the connection-specific fields HTTP/3 forbids left out.
#pragma once

#include "load/load_plan.hpp"
#include "quic/http3_layer.hpp"

#include <vector>

namespace stand::load {

std::vector<quic::Http3Field> http3_fields(const LoadSpec& spec, std::size_t k);

}  // namespace stand::load
