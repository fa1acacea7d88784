# Shared warning settings, applied to openloop's own targets only (never to third-party code).
add_library(openloop_warnings INTERFACE)
target_compile_options(openloop_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wno-sign-conversion
  $<$<BOOL:${OPENLOOP_WERROR}>:-Werror>)

# openloop_module(NAME SOURCES... DEPS ...): a static library openloop_NAME with alias openloop::NAME,
# its headers included as "NAME/file.h" from src/.
function(openloop_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  if(NOT ARG_SOURCES)  # header-only (or not yet written) module
    add_library(openloop_${name} INTERFACE)
    target_include_directories(openloop_${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(openloop_${name} INTERFACE ${ARG_DEPS})
    add_library(openloop::${name} ALIAS openloop_${name})
    return()
  endif()
  add_library(openloop_${name} STATIC ${ARG_SOURCES})
  add_library(openloop::${name} ALIAS openloop_${name})
  target_include_directories(openloop_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(openloop_${name} PUBLIC ${ARG_DEPS} PRIVATE openloop_warnings)
endfunction()

# openloop_test(NAME SOURCES... DEPS ...): one GoogleTest executable per module, registered with CTest.
function(openloop_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main openloop_warnings)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  include(GoogleTest)
  gtest_discover_tests(${name} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 30)
endfunction()
