# The unit test binaries: doctest cases, each one a ctest test.
#
# A part's unit tests are a binary of their own, linked with that part alone
# (and with what every test binary shares), so they build and run without the
# rest of the tree:
#   - a part of the host (framework/src/<part>): tests/unit/<part>/*.cpp,
#     the binary stand_unit_<part> (tests/CMakeLists.txt makes one for each
#     part that has that folder);
#   - a plugin's part or an adapter kit: its tests/*.cpp, declared beside it
#     with stand_part_tests(<target> <file>...), the binary <target>_tests.
# Both are labelled `unit` and `quick`: a case that needs more than its binary
# (a real program, a plugin, a plugin worker, `stand` itself, a cgroup box) is
# in tests/unit/programs/ (stand_program_tests, labelled `unit` only).
#
# Every test binary links stand_test_main (doctest's main, compiled once) and
# stand_test_support (the loopback HTTP test server, the JSON Schema checker,
# the test certificates, tests/unit as an include directory, the paths of the
# source and build trees) and reuses stand_test_support's precompiled header.
if(NOT STAND_BUILD_TESTS OR STAND_FUZZ)
  function(stand_part_tests target)
  endfunction()
  return()
endif()

find_package(doctest REQUIRED)
include(doctest)

set(_stand_unit_dir ${PROJECT_SOURCE_DIR}/tests/unit)
add_library(stand_test_support STATIC ${_stand_unit_dir}/support/http_test_server.cpp
                                      ${_stand_unit_dir}/support/json_schema_check.cpp)
target_include_directories(stand_test_support PUBLIC ${_stand_unit_dir})
target_link_libraries(stand_test_support PUBLIC stand_boost_asio stand::tls_certs Boost::json doctest::doctest
                                                OpenSSL::SSL OpenSSL::Crypto Threads::Threads)
target_compile_definitions(stand_test_support PUBLIC STAND_TEST_BINARY_DIR="${PROJECT_BINARY_DIR}"
                                                     STAND_TEST_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
stand_target_warnings(stand_test_support)
# Test code is compiled with -Og: it measures nothing itself (the host's parts
# it drives keep the build's -O2), and -Og takes 35-45 % off the compile of a
# test file (load_step_test 7.9 s -> 4.9 s, backend_server_test 22.4 -> 14.4),
# a minute of the build's wall time on two cores. PUBLIC: the precompiled
# header and every test binary see the same flags.
if(CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo)$")
  target_compile_options(stand_test_support PUBLIC -Og)
endif()
# The precompiled header of every test binary: their flags are the same
# (stand_test_support's definitions), so one serves them all.
stand_precompile_common(stand_test_support <doctest/doctest.h>)

# doctest's implementation and main, compiled once. main.cpp defines doctest's
# switch before it includes doctest: no precompiled header.
add_library(stand_test_main STATIC ${_stand_unit_dir}/main.cpp)
target_link_libraries(stand_test_main PUBLIC stand_test_support)
stand_target_warnings(stand_test_main)
set_source_files_properties(${_stand_unit_dir}/main.cpp PROPERTIES SKIP_PRECOMPILE_HEADERS ON)

# stand_test_binary(<name> LABELS <label;...> SOURCES <file>... LINKS <target>...)
# A doctest binary whose every case is a ctest test with these labels; a
# binary labelled quick is built by the target quick_tests.
function(stand_test_binary name)
  cmake_parse_arguments(arg "" "" "LABELS;SOURCES;LINKS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LINKS} stand_test_main stand_test_support)
  stand_target_warnings(${name})
  stand_precompile_common_reuse(${name} stand_test_support)
  doctest_discover_tests(${name} WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  # doctest_discover_tests(... PROPERTIES LABELS "unit;quick") would pass the
  # list on as words (LABELS unit, then a property named quick): the labels
  # are set on the list of cases it read instead.
  set(labels_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  file(WRITE ${labels_file} "foreach(_test IN LISTS ${name}_TESTS)\n"
                            "  set_tests_properties(\"\${_test}\" PROPERTIES LABELS \"${arg_LABELS}\")\n"
                            "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_file})
  if("quick" IN_LIST arg_LABELS)
    set_property(GLOBAL APPEND PROPERTY STAND_QUICK_TEST_BINARIES ${name})
  endif()
  set_property(GLOBAL APPEND PROPERTY STAND_UNIT_TEST_BINARIES ${name})
endfunction()

# stand_part_tests(<target> <file>...): the unit tests of a plugin's part or a
# kit, in its CMakeLists.txt, the files in its tests/ folder: the binary
# <target>_tests, linked with <target> alone, labelled unit and quick.
function(stand_part_tests target)
  stand_test_binary(${target}_tests LABELS "unit;quick" SOURCES ${ARGN} LINKS ${target})
endfunction()
