# stand_add_proxy_plugin(ID PARTS <sources> SOURCES <sources>): a reverse-proxy
# plugin on the proxy kit. PARTS (its config renderer and output readers, no host
# types) become the static library stand_<ID>_parts, which the plugin and the
# unit tests share; SOURCES (its ProxyPlugin subclass) become the plugin
# build/plugins/<ID>.so (out of this tree: <ID>.so in the build folder, or
# STAND_PLUGIN_OUTPUT_DIRECTORY). Installed with the SDK: find_package(StandSDK
# COMPONENTS proxy_kit) defines it too.
function(stand_add_proxy_plugin id)
  cmake_parse_arguments(arg "" "" "PARTS;SOURCES" ${ARGN})
  add_library(stand_${id}_parts STATIC ${arg_PARTS})
  target_include_directories(stand_${id}_parts PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(stand_${id}_parts PUBLIC stand::proxy_kit)
  set_target_properties(stand_${id}_parts PROPERTIES POSITION_INDEPENDENT_CODE ON
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  stand_add_plugin(stand_plugin_${id} ID ${id} CPP SOURCES ${arg_SOURCES})
  target_link_libraries(stand_plugin_${id} PRIVATE stand_${id}_parts)
  if(COMMAND stand_target_warnings)  # this repository's warnings; a project of its own sets its own
    stand_target_warnings(stand_${id}_parts)
    stand_target_warnings(stand_plugin_${id})
  endif()
endfunction()
