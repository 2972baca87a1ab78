# stand_add_kit(<target> NAME <name> SOURCES <file>... [LINKS <target>...] [EXTRA_TARGETS <target>...] [MODULES <file>...])
#
# An adapter kit: a static, position-independent library of the kit folder's
# src/, whose headers are include/stand/kits/<kit>/*.hpp, included as
# <stand/kits/<kit>/<header>.hpp> in this tree and from the installed SDK
# alike. It installs under the component `sdk`: the headers in
# include/stand/kits/<kit>/, the library in lib/, and
# lib/cmake/StandSDK/StandSDK_<name>Targets.cmake, which
# find_package(StandSDK COMPONENTS <name>) loads (StandSDKConfig.cmake).
# The target is stand::<name> in this tree and for the installed SDK alike.
# EXTRA_TARGETS (what the kit links from this tree, e.g. stand_tls_certs) go
# into the same export; MODULES are CMake files installed beside the config.
include(GNUInstallDirs)

function(stand_add_kit target)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LINKS;EXTRA_TARGETS;MODULES" ${ARGN})
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/StandSDK)
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(stand::${ARG_NAME} ALIAS ${target})
  target_link_libraries(${target} PUBLIC ${ARG_LINKS})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ARG_NAME} POSITION_INDEPENDENT_CODE ON
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(COMMAND stand_target_warnings)
    stand_target_warnings(${target})
  endif()
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT sdk)
  install(TARGETS ${target} ${ARG_EXTRA_TARGETS} EXPORT StandSDK_${ARG_NAME}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT sdk)
  install(EXPORT StandSDK_${ARG_NAME}Targets NAMESPACE stand:: DESTINATION ${cmake_dir} COMPONENT sdk)
  if(ARG_MODULES)
    install(FILES ${ARG_MODULES} DESTINATION ${cmake_dir} COMPONENT sdk)
  endif()
endfunction()
