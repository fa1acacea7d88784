// Fuzz target: scenario files (src/workload/scenario_file, YAML) loaded from memory.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workload/scenario_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Relative csv() paths resolve in a folder that does not exist: the fuzzer reads no files.
  (void)openloop::workload::load_plan_text(text, "fuzz.yaml", "/nonexistent/openloop-fuzz");
  return 0;
}
