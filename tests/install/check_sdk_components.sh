#!/usr/bin/env bash
# usage: check_sdk_components.sh SDK_PREFIX
# find_package(StandSDK COMPONENTS ...) against the installed SDK: the three
# kits give their targets, STAND_NEWER_PYTHON names the installed
# newer_python.sh; an unknown component, or a kit whose dependency is
# missing, fails the configure naming the component and the reason.
set -euo pipefail
prefix=$1
work=$(mktemp -d /tmp/stand-sdk-components.XXXXXX)
trap 'rm -rf "$work"' EXIT
# One build folder for all (the compiler is detected once); the check that
# disables OpenSSL comes last, since the cache keeps it.
configure() {  # configure COMPONENTS [CMAKE_ARG...]: the output; the exit status of cmake
  local components=$1; shift
  cat >"$work/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(components LANGUAGES CXX)
find_package(StandSDK 1 CONFIG REQUIRED COMPONENTS $components)
foreach(t stand::panel_kit stand::tls_certs stand::proxy_kit stand::probe_kit)
  if(TARGET \${t})
    message(STATUS "target \${t}")
  endif()
endforeach()
if(COMMAND stand_add_proxy_plugin)
  message(STATUS "command stand_add_proxy_plugin")
endif()
if(EXISTS "\${STAND_NEWER_PYTHON}")
  message(STATUS "tool \${STAND_NEWER_PYTHON}")
endif()
CMAKE
  cmake -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" "$@" 2>&1
}
fail=0
check() {  # check WANT_STATUS REGEX COMPONENTS [CMAKE_ARG...]
  local want=$1 regex=$2; shift 2
  local out status=0
  out=$(configure "$@") || status=1
  if [[ $status -ne $want ]] || ! grep -qE -- "$regex" <<<"$out"; then
    echo "FAIL: COMPONENTS $1 -> status $status (want $want), no line matching: $regex"; echo "$out" | tail -15; fail=1
  else
    echo "ok: COMPONENTS $1"
  fi
}
check 0 "target stand::probe_kit" "panel_kit proxy_kit probe_kit"
check 0 "command stand_add_proxy_plugin" "proxy_kit"
check 0 "target stand::tls_certs" "panel_kit"
check 0 "tool .*/share/stand/tools/newer_python.sh" "panel_kit"  # the recipe for a newer Python, installed
[[ -x $prefix/share/stand/tools/newer_python.sh ]] || { echo "FAIL: $prefix/share/stand/tools/newer_python.sh is not executable"; fail=1; }
check 1 "component no_such_kit: no such component" "probe_kit no_such_kit"
check 1 "component panel_kit: needs OpenSSL's libcrypto" "panel_kit" -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON
exit $fail
