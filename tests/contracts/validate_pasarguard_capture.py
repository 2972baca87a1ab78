#!/usr/bin/env python3
"""Validates captured requests against the pydantic models of the `pasarguard` client
package (run inside its venv; see check_pasarguard_contract.sh).

Route table: method + path regex -> request model (body), plus the transport rules
the panel enforces: JSON bodies except the form-encoded POST /api/admin/token,
POST /api/host/ with its trailing slash, required query parameters. Top-level
unknown keys are errors unless --allow-unknown-keys (the package's models allow
extras; the panel silently drops them, so a typo would go unnoticed otherwise).
Routes without a body model must be known routes (an unknown route is an error).
"""

import importlib.metadata
import json
import re
import sys
import urllib.parse

import pydantic
from pasarguard import models as M

ALLOW_UNKNOWN = "--allow-unknown-keys" in sys.argv

FORM, JSON, NONE = "form", "json", "none"
ROUTES = [  # (method, path regex, body kind, model, required query params)
    ("GET", r"/", NONE, None, ()),
    ("GET", r"/health", NONE, None, ()),
    ("POST", r"/api/setup/owner", JSON, M.OwnerCreateRequest, ()),
    ("PATCH", r"/api/setup/owner", JSON, M.OwnerResetRequest, ()),
    ("POST", r"/api/admin/token", FORM, M.BodyAdminToken, ()),
    ("GET", r"/api/admin", NONE, None, ()),
    ("GET", r"/api/inbounds", NONE, None, ()),
    ("GET", r"/api/cores", NONE, None, ()),
    ("POST", r"/api/core", JSON, M.CoreCreate, ()),
    ("PUT", r"/api/core/\d+", JSON, M.CoreCreate, ("restart_nodes",)),
    ("POST", r"/api/group", JSON, M.GroupCreate, ()),
    ("GET", r"/api/groups", NONE, None, ()),
    ("POST", r"/api/host/", JSON, M.CreateHost, ()),
    ("GET", r"/api/hosts", NONE, None, ()),
    ("POST", r"/api/node", JSON, M.NodeCreate, ()),
    ("GET", r"/api/nodes", NONE, None, ()),
    ("GET", r"/api/node/\d+", NONE, None, ()),
    ("PUT", r"/api/node/\d+", JSON, M.NodeModify, ()),
    ("POST", r"/api/user", JSON, M.UserCreate, ()),
    ("GET", r"/api/users", NONE, None, ()),
    ("GET", r"/api/user/by-id/\d+", NONE, None, ()),
    ("DELETE", r"/api/user/by-id/\d+", NONE, None, ()),
    ("PUT", r"/api/user/by-id/\d+", JSON, M.UserModify, ()),
    ("POST", r"/api/user/[^/]+/revoke_sub", NONE, None, ()),
    ("GET", r"/api/user/[^/]+", NONE, None, ()),
    ("DELETE", r"/api/user/[^/]+", NONE, None, ()),
    ("PUT", r"/api/user/[^/]+", JSON, M.UserModify, ()),
    ("GET", r"/sub/[^/]+(/(info|raw|apps|usage|links|links_base64|xray|wireguard|sing_box|"
            r"clash|clash_meta|outline))?/?", NONE, None, ()),
    ("HEAD", r"/sub/[^/]+/?", NONE, None, ()),
]
QUERY_INTS = {"offset", "limit"}


def check_model(model, data):
    errs = []
    try:
        model.model_validate(data)
    except pydantic.ValidationError as e:
        errs = ["%s: %s [%s]" % (".".join(str(x) for x in err["loc"]) or "(root)", err["msg"],
                                 err["type"]) for err in e.errors()]
    if not ALLOW_UNKNOWN and isinstance(data, dict):
        known = set(model.model_fields)
        known |= {f.alias for f in model.model_fields.values() if f.alias}
        errs += ["%s: unknown field (not in %s)" % (k, model.__name__)
                 for k in data if k not in known]
    return errs


def main():
    path = sys.argv[1]
    checked = failed = 0
    used = set()
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rec = json.loads(line)
        if rec.get("listener", "main") != "main" or rec["path"].startswith("/__double/"):
            continue
        checked += 1
        where = "line %d: %s %s%s" % (n, rec["method"], rec["path"],
                                       "?" + rec["query"] if rec.get("query") else "")
        hdr = {k.lower(): v for k, v in (rec.get("headers") or {}).items()}
        ctype = hdr.get("content-type", "").split(";")[0].strip().lower()
        errs = []
        route = next((r for r in ROUTES if r[0] == rec["method"] and
                      re.fullmatch(r[1], rec["path"])), None)
        if route is None:
            if rec["method"] == "POST" and rec["path"] == "/api/host":
                errs.append("POST /api/host needs the trailing slash (/api/host/): 307 otherwise")
            else:
                errs.append("no route of the PasarGuard API matches this method and path")
            print("FAIL %s -> (no route)\n    %s" % (where, "\n    ".join(errs)))
            failed += 1
            continue
        method, rx, kind, model, required_q = route
        name = "%s %s" % (method, rx)
        used.add(name)
        query = urllib.parse.parse_qs(rec.get("query") or "", keep_blank_values=True)
        for q in required_q:
            if q not in query:
                errs.append("query.%s: required query parameter missing (422)" % q)
        for q in QUERY_INTS & set(query):
            if not re.fullmatch(r"-?\d+", query[q][0]):
                errs.append("query.%s: Input should be a valid integer" % q)
        body = rec.get("body") or ""
        if kind == JSON:
            if ctype != "application/json":
                errs.append('body: Content-Type must be application/json (got "%s")' % ctype)
            try:
                data = json.loads(body)
            except ValueError:
                errs.append("body: not valid JSON")
            else:
                errs += ["body." + e for e in check_model(model, data)]
        elif kind == FORM:
            if ctype != "application/x-www-form-urlencoded":
                errs.append('body: must be form-encoded (application/x-www-form-urlencoded), '
                            'got "%s"' % ctype)
            data = {k: v[0] for k, v in urllib.parse.parse_qs(body, keep_blank_values=True)
                    .items()}
            errs += ["form." + e for e in check_model(model, data)]
        elif body.strip():
            errs.append("body: this route takes no body")
        label = model.__name__ if model else name
        if errs:
            failed += 1
            print("FAIL %s -> %s\n    %s" % (where, label, "\n    ".join(errs)))
        else:
            print("ok   %s -> %s" % (where, label))
    print("pasarguard contract pasarguard==%s (pydantic %s): %d requests, %d routes, %d failed"
          % (importlib.metadata.version("pasarguard"), pydantic.VERSION, checked, len(used),
             failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
