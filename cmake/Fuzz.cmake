# Fuzzing builds (OPENLOOP_FUZZ=ON, preset "fuzz"): clang's libFuzzer with ASan and UBSan on every target of
# the tree (llhttp too), so the fuzzer is guided by coverage of all our code and any report ends the run.
option(OPENLOOP_FUZZ "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)
if(OPENLOOP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OPENLOOP_FUZZ needs clang (libFuzzer); use the preset: cmake --preset fuzz")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
