# STAND_FUZZ=ON: every target of this build is compiled with AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage instrumentation, and
# tests/fuzz links each harness with libFuzzer's main (`./stand.sh fuzz`
# configures such a build in build-fuzz). Clang only: GCC has no libFuzzer.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "STAND_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ "
                      "-DCMAKE_C_COMPILER=clang, or use ./stand.sh fuzz")
endif()
set(STAND_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# libFuzzer's usual level (whatever the build type): -O1 finds the same bugs
# as -O2 and compiles in half the time; assertions stay on.
add_compile_options(-O1 -gline-tables-only -UNDEBUG ${STAND_FUZZ_SANITIZERS} -fsanitize=fuzzer-no-link
                    -fsanitize-coverage-ignorelist=${PROJECT_SOURCE_DIR}/tests/fuzz/coverage_ignore.txt)
add_link_options(${STAND_FUZZ_SANITIZERS})
