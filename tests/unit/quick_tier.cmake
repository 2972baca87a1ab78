# The unit cases' labels, set when ctest reads the list doctest_discover_tests
# wrote (stand_unit_tests_TESTS): every case is `unit`, and `quick` unless it
# needs more than the test binary and its fixtures. Found by running each case
# under strace (2026-12-05): these cases start a real program, a plugin worker
# or `stand` itself, load a plugin from build/plugins, or make a cgroup box
# (root). Each is fast here too (all 464 cases take 21 s with ctest -j2), but
# they need the plugins built and the programs installed; they run in the
# whole suite and with `ctest -L unit`. A name is matched by its beginning.
set(_stand_unit_needs_more
  # a real fio
  "fio probe: "
  # a plugin in a worker process
  "disk probe: tmpfs" "sysprobe: the plugin ")

foreach(_stand_unit_test IN LISTS stand_unit_tests_TESTS)
  set(_stand_unit_labels unit quick)
  foreach(_stand_unit_prefix IN LISTS _stand_unit_needs_more)
    string(FIND "${_stand_unit_test}" "${_stand_unit_prefix}" _stand_unit_at)
    if(_stand_unit_at EQUAL 0)
      set(_stand_unit_labels unit)
      break()
    endif()
  endforeach()
  set_tests_properties("${_stand_unit_test}" PROPERTIES LABELS "${_stand_unit_labels}")
endforeach()
