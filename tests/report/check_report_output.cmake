# cmake -DSTAND=... -DARGS=... -DOUTPUT=... -DEXPECTED=... -P check_report_output.cmake
# Runs `stand ARGS --output OUTPUT` and compares OUTPUT with EXPECTED byte for byte.
file(REMOVE ${OUTPUT})
execute_process(COMMAND ${STAND} ${ARGS} --output ${OUTPUT} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "stand exited with ${rc}: ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTPUT} ${EXPECTED} RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "${OUTPUT} differs from ${EXPECTED}")
endif()
