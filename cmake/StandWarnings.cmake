# Same warnings for every target of this repository.
function(stand_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wconversion
                         -Wno-sign-conversion)
  if(STAND_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
