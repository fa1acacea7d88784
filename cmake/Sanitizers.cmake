# Sanitizer builds, selected by OPENLOOP_SANITIZE=address,undefined or thread (used by the presets).
# -fno-sanitize-recover: an undefined-behaviour report ends the process (non-zero exit) instead of printing and
# going on, so a report fails the test that triggered it (`make test-sanitize`).
set(OPENLOOP_SANITIZE "" CACHE STRING "Comma-separated sanitizers: address,undefined | thread")
if(OPENLOOP_SANITIZE)
  add_compile_options(-fsanitize=${OPENLOOP_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${OPENLOOP_SANITIZE})
endif()
