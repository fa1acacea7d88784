# Sanitizer builds, selected by OPENLOOP_SANITIZE=address,undefined or thread (used by the presets).
set(OPENLOOP_SANITIZE "" CACHE STRING "Comma-separated sanitizers: address,undefined | thread")
if(OPENLOOP_SANITIZE)
  add_compile_options(-fsanitize=${OPENLOOP_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${OPENLOOP_SANITIZE})
endif()
