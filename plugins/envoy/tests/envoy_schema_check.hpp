// Checks an Envoy config in proto3 JSON against the Envoy v3 API messages
// in tests/data/envoy/envoy-v3-schema.json (extracted from the protobuf
// descriptors of the PyPI package xds-protos): field names, JSON value
// types, enum names, oneofs, "@type" URLs of typed_config (google.protobuf.Any),
// deprecated fields, and the protoc-gen-validate rules Envoy enforces on
// load that the extract keeps (required messages and oneofs, string
// min_len, repeated min_items, numeric bounds, defined enums).
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand_envoy::test {

// One line per problem ("static_resources.clusters[0].tipe: no field 'tipe'
// in envoy.config.cluster.v3.Cluster"); empty when `doc` is a valid
// `message_type` (a full protobuf name).
std::vector<std::string> envoy_schema_problems(const boost::json::value& doc,
                                               const std::string& message_type = "envoy.config.bootstrap.v3.Bootstrap");

}  // namespace stand_envoy::test
