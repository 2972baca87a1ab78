"""Connect-RPC wire helpers shared by the Mistgate panel double and its node-agent double.

The JSON error shape is connect-go's: {"code", "message"[, "details": [{"type", "value", "debug"}]]},
where "type" is the detail's full message name, "value" the protobuf bytes in unpadded standard base64 and
"debug" the detail as protojson (which leaves out zero values and writes 64-bit integers as strings).
"""

import base64
import hashlib
import hmac
import json
import struct

from common.panel_double import json_response

# Connect error code -> HTTP status (connect protocol spec).
CONNECT_STATUS = {
    "canceled": 499, "unknown": 500, "invalid_argument": 400,
    "deadline_exceeded": 504, "not_found": 404, "already_exists": 409,
    "permission_denied": 403, "resource_exhausted": 429, "failed_precondition": 400,
    "aborted": 409, "out_of_range": 400, "unimplemented": 501, "internal": 500,
    "unavailable": 503, "data_loss": 500, "unauthenticated": 401,
}


class ConnectError(Exception):
    def __init__(self, code, message, details=None):
        Exception.__init__(self, message)
        self.code, self.message, self.details = code, message, details


def connect_error(code, message, details=None):
    body = {"code": code, "message": message}
    if details:
        body["details"] = details
    return json_response(body, CONNECT_STATUS[code])


def request_message(req):
    """(the JSON request message, None) or (None, the Connect error answer for a body that is not one)."""
    try:
        body = json.loads(req.body or b"{}")
        if not isinstance(body, dict):
            raise ValueError("not an object")
    except ValueError as e:
        return None, connect_error("invalid_argument", "unmarshal message: %s" % e)
    return body, None


def _varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def detail(type_name, fields, debug):
    """A Connect error detail; fields: [(field number, non-negative int)] encoded as protobuf varints."""
    raw = b"".join(bytes([num << 3]) + _varint(v) for num, v in fields if v)
    return {"type": type_name, "value": base64.b64encode(raw).decode().rstrip("="), "debug": debug}


def sign_in_failure(attempts_left, locked_until):
    """mistgate.admin.v1.SignInFailure {int32 attempts_left = 1; int64 locked_until_unix = 2} (auth.proto)."""
    debug = {}
    if attempts_left:
        debug["attemptsLeft"] = attempts_left
    if locked_until:
        debug["lockedUntilUnix"] = str(locked_until)
    return [detail("mistgate.admin.v1.SignInFailure", [(1, attempts_left), (2, locked_until)], debug)]


def step_up_required(passkey, totp):
    """mistgate.admin.v1.StepUpRequired {bool passkey = 1; bool totp = 2} (auth.proto, auth/stepup.go)."""
    debug = {}
    if passkey:
        debug["passkey"] = True
    if totp:
        debug["totp"] = True
    return [detail("mistgate.admin.v1.StepUpRequired", [(1, int(passkey)), (2, int(totp))], debug)]


def totp(secret_b32, step_no):
    key = base64.b32decode(secret_b32 + "=" * (-len(secret_b32) % 8))
    mac = hmac.new(key, struct.pack(">Q", step_no), hashlib.sha1).digest()
    off = mac[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", mac[off:off + 4])[0] & 0x7FFFFFFF) % 1000000)
