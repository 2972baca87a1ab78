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

# stand_add_compat_target(<plugin-target> [NAME <name>] [ARGS <arg>...])
#
# A target (default name: compat) that builds the plugin and runs
# `stand compat` on it with ARGS (e.g. --target-config FILE), writing JUnit
# to <build dir>/<name>-junit.xml. STAND_EXECUTABLE is the stand binary
# (default: `stand` in PATH); without one the target fails saying so.
function(stand_add_compat_target plugin)
  cmake_parse_arguments(ARG "" "NAME" "ARGS" ${ARGN})
  if(NOT ARG_NAME)
    set(ARG_NAME compat)
  endif()
  find_program(STAND_EXECUTABLE stand DOC "the stand binary that runs `stand compat`")
  if(NOT STAND_EXECUTABLE)
    add_custom_target(${ARG_NAME}
                      COMMAND ${CMAKE_COMMAND} -E echo "${ARG_NAME}: no stand binary: put stand in PATH or configure with -DSTAND_EXECUTABLE=/path/to/stand"
                      COMMAND ${CMAKE_COMMAND} -E false VERBATIM)
    return()
  endif()
  add_custom_target(${ARG_NAME}
                    COMMAND ${STAND_EXECUTABLE} compat $<TARGET_FILE:${plugin}> ${ARG_ARGS}
                            --junit ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}-junit.xml
                    DEPENDS ${plugin} USES_TERMINAL VERBATIM)
endfunction()
