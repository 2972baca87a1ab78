# stand_install_kit(<target> NAME <name> [EXTRA_TARGETS <target>...] [MODULES <file>...])
#
# Ships an adapter kit (a static library of plugins/<x>-kit) with the SDK,
# under the install component `sdk`: its headers in include/stand/<name>/,
# the library in lib/, and lib/cmake/StandSDK/StandSDK_<name>Targets.cmake,
# which find_package(StandSDK COMPONENTS <name>) loads (StandSDKConfig.cmake).
# The target is stand::<name> in this tree and for the installed SDK alike.
# Its headers are found as "<header>.hpp" in both, so a plugin moves between
# plugins/ and a project of its own unchanged (<stand/<name>/<header>.hpp>
# works too). EXTRA_TARGETS (what the kit links, e.g. stand_tls_certs) go
# into the same export; MODULES are CMake files installed beside the config.
include(GNUInstallDirs)

function(stand_install_kit target)
  cmake_parse_arguments(ARG "" "NAME" "EXTRA_TARGETS;MODULES" ${ARGN})
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/StandSDK)
  add_library(stand::${ARG_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ARG_NAME})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/stand/${ARG_NAME}>)
  file(GLOB headers ${CMAKE_CURRENT_SOURCE_DIR}/*.hpp)
  install(FILES ${headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/stand/${ARG_NAME} COMPONENT sdk)
  install(TARGETS ${target} ${ARG_EXTRA_TARGETS} EXPORT StandSDK_${ARG_NAME}Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT sdk)
  install(EXPORT StandSDK_${ARG_NAME}Targets NAMESPACE stand:: DESTINATION ${cmake_dir} COMPONENT sdk)
  if(ARG_MODULES)
    install(FILES ${ARG_MODULES} DESTINATION ${cmake_dir} COMPONENT sdk)
  endif()
endfunction()
