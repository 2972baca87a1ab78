# Same warnings for every target of this repository.
function(stand_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wconversion
                         -Wno-sign-conversion)
  if(STAND_WERROR)
    # GCC 12's -Warray-bounds misfires on std::string concatenation once
    # inlining reaches libstdc++'s memcpy (a known GCC 12 false positive, more often with the
    # precompiled headers): shown, not fatal.
    target_compile_options(${target} PRIVATE -Werror
                           $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-error=array-bounds>)
  endif()
endfunction()
