// Fuzz target: results files read back (src/results/files/results_reader: JSON, histograms, conservation checks).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "results/files/results_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)openloop::results::parse_results(text, "fuzz.json");
  return 0;
}
