#!/usr/bin/env python3
"""Writes envoy-v3-schema.json: the Envoy v3 API messages the envoy plugin's
bootstrap uses (and everything they reach), with field names, types, oneofs,
deprecation and the protoc-gen-validate rules the checker in
plugins/envoy/tests/envoy_schema_check.cpp enforces.

Source: the protobuf descriptors in the PyPI package xds-protos ("Generated
Python code from envoyproxy/data-plane-api"). To regenerate:
    python3 -m venv /tmp/x && /tmp/x/bin/pip install xds-protos==1.85.0
    /tmp/x/bin/python extract_envoy_schema.py > envoy-v3-schema.json
"""
import importlib
import json
import sys
from importlib.metadata import version

from google.protobuf.descriptor import FieldDescriptor as FD
import validate.validate_pb2 as pgv

# The messages the bootstrap names, directly or through a typed_config "@type".
ROOT_MODULES = [
    "envoy.config.bootstrap.v3.bootstrap_pb2",
    "envoy.extensions.filters.network.http_connection_manager.v3.http_connection_manager_pb2",
    "envoy.extensions.filters.http.router.v3.router_pb2",
    "envoy.extensions.transport_sockets.tls.v3.tls_pb2",
    "envoy.extensions.upstreams.http.v3.http_protocol_options_pb2",
    "envoy.extensions.resource_monitors.downstream_connections.v3.downstream_connections_pb2",
]
WELL_KNOWN = "google.protobuf."

KIND = {
    FD.TYPE_DOUBLE: "double", FD.TYPE_FLOAT: "float", FD.TYPE_INT64: "int64", FD.TYPE_UINT64: "uint64",
    FD.TYPE_INT32: "int32", FD.TYPE_FIXED64: "uint64", FD.TYPE_FIXED32: "uint32", FD.TYPE_BOOL: "bool",
    FD.TYPE_STRING: "string", FD.TYPE_BYTES: "bytes", FD.TYPE_UINT32: "uint32", FD.TYPE_SFIXED32: "int32",
    FD.TYPE_SFIXED64: "int64", FD.TYPE_SINT32: "int32", FD.TYPE_SINT64: "int64",
}
NUMERIC_RULES = ["int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32",
                 "sfixed64", "double", "float"]


def field_type(f):
    if f.type == FD.TYPE_MESSAGE:
        return {"kind": "message", "type": f.message_type.full_name}
    if f.type == FD.TYPE_ENUM:
        return {"kind": "enum", "type": f.enum_type.full_name}
    return {"kind": KIND[f.type]}


def rules_of(f):
    opts = f.GetOptions()
    if not opts.HasExtension(pgv.rules):
        return {}
    r = opts.Extensions[pgv.rules]
    out = {}
    which = r.WhichOneof("type")
    if which == "message" and r.message.required:
        out["required"] = True
    elif which in ("duration", "any", "timestamp") and getattr(r, which).required:
        out["required"] = True
    elif which == "string":
        if r.string.HasField("min_len"): out["min_len"] = r.string.min_len
        if r.string.HasField("max_len"): out["max_len"] = r.string.max_len
    elif which == "bytes":
        if r.bytes.HasField("min_len"): out["min_len"] = r.bytes.min_len
    elif which in NUMERIC_RULES:
        n = getattr(r, which)
        for bound in ("gt", "gte", "lt", "lte"):
            if n.HasField(bound): out[bound] = getattr(n, bound)
    elif which == "enum" and r.enum.defined_only:
        out["defined_only"] = True
    elif which == "repeated":
        if r.repeated.HasField("min_items"): out["min_items"] = r.repeated.min_items
        if r.repeated.HasField("max_items"): out["max_items"] = r.repeated.max_items
    elif which == "map":
        if r.map.HasField("min_pairs"): out["min_pairs"] = r.map.min_pairs
    return out


messages, enums = {}, {}


def visit_enum(e):
    if e.full_name not in enums:
        enums[e.full_name] = [v.name for v in e.values]


def visit(md):
    if md.full_name in messages or md.full_name.startswith(WELL_KNOWN):
        return
    entry = {"fields": {}, "oneofs": {}}
    messages[md.full_name] = entry
    for o in md.oneofs:
        if len(o.fields) == 1 and o.name == "_" + o.fields[0].name:
            continue  # proto3 `optional`: not a real oneof
        required = o.GetOptions().HasExtension(pgv.required) and o.GetOptions().Extensions[pgv.required]
        entry["oneofs"][o.name] = {"required": bool(required)}
    for f in md.fields:
        d = {"json": f.json_name}
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            key, value = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            d["label"] = "map"
            d["key"] = field_type(key)["kind"]
            d["value"] = field_type(value)
            if value.message_type is not None: visit(value.message_type)
            if value.enum_type is not None: visit_enum(value.enum_type)
        else:
            d.update(field_type(f))
            if f.is_repeated: d["label"] = "repeated"
            if f.message_type is not None: visit(f.message_type)
            if f.enum_type is not None: visit_enum(f.enum_type)
        o = f.containing_oneof
        if o is not None and o.name in entry["oneofs"]:
            d["oneof"] = o.name
        if f.GetOptions().deprecated:
            d["deprecated"] = True
        d.update(rules_of(f))
        entry["fields"][f.name] = d


for name in ROOT_MODULES:
    for md in importlib.import_module(name).DESCRIPTOR.message_types_by_name.values():
        visit(md)

json.dump({"source": "PyPI xds-protos " + version("xds-protos") +
                     " (protobuf descriptors generated from envoyproxy/data-plane-api), "
                     "extracted by tests/data/envoy/extract_envoy_schema.py",
           "messages": dict(sorted(messages.items())), "enums": dict(sorted(enums.items()))},
          sys.stdout, separators=(",", ":"), sort_keys=False)
sys.stdout.write("\n")
