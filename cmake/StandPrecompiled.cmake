# Precompiled headers for the repository's largest targets. Most of their
# translation units include Boost.JSON, whose parsing is a third to a half of
# their compile time; the standard headers below come along in nearly all.
# Asio and Beast are left out on purpose: only a sixth of the units use them,
# and loading a header that big costs every other unit more than it saves (a
# precompiled header of their own for those units saved nothing either: their
# cost is code generation, which framework/boost_asio_src.cpp now does once).
#
# The precompiled header is force-included, so a unit that forgets one of
# these includes still compiles here; configure with
# -DSTAND_PRECOMPILED_HEADERS=OFF to check a change without it.
option(STAND_PRECOMPILED_HEADERS "Precompile Boost.JSON and common standard headers" ON)

function(stand_precompile_common target)
  if(NOT STAND_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <boost/json.hpp> <algorithm> <chrono> <filesystem> <fstream> <functional> <map>
    <memory> <optional> <set> <sstream> <string> <string_view> <vector> ${ARGN})
endfunction()

# The host's parts share one precompiled header: their flags are the same.
function(stand_precompile_common_reuse target owner)
  if(STAND_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
