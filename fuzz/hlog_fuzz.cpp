// Fuzz target: .hlog interval logs (src/hdr/interval_log).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hdr/interval_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto log = openloop::hdr::parse_interval_log(text, "fuzz.hlog")) {
    for (const auto& entry : log->intervals) {
      volatile double sink = log->absolute_start_seconds(entry) + static_cast<double>(entry.histogram.max());
      (void)sink;
    }
  }
  return 0;
}
