# stand_add_plugin(<target> ID <plugin-id> SOURCES <src>... [CPP])
#
# Builds a plugin as a MODULE library named <plugin-id>.so with hidden
# visibility and a version script, so it exports exactly one symbol:
# stand_plugin_entry_v1. CPP links the header-only C++ helpers (Boost.JSON).
# Output goes to STAND_PLUGIN_OUTPUT_DIRECTORY when that is set.
set(_STAND_PLUGIN_MAP "${CMAKE_CURRENT_LIST_DIR}/stand_plugin.map")

function(stand_add_plugin target)
  cmake_parse_arguments(ARG "CPP" "ID" "SOURCES" ${ARGN})
  if(NOT ARG_ID)
    set(ARG_ID ${target})
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "stand_add_plugin(${target}): SOURCES is required")
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME "${ARG_ID}"
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  if(DEFINED STAND_PLUGIN_OUTPUT_DIRECTORY)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${STAND_PLUGIN_OUTPUT_DIRECTORY}")
  endif()
  target_link_options(${target} PRIVATE "LINKER:--version-script=${_STAND_PLUGIN_MAP}" "LINKER:-z,defs")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_STAND_PLUGIN_MAP}")
  if(ARG_CPP)
    target_link_libraries(${target} PRIVATE stand::sdk_cpp)
  else()
    target_link_libraries(${target} PRIVATE stand::sdk)
  endif()
endfunction()
