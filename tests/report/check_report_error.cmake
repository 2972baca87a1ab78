# cmake -DSTAND=... -DARGS=... -DEXPECT_EXIT=N -DEXPECT_STDERR=REGEX -P check_report_error.cmake
# Runs `stand ARGS` and checks its exit code and that stderr matches REGEX.
execute_process(COMMAND ${STAND} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit ${rc}, expected ${EXPECT_EXIT}; stderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}': ${err}")
endif()
