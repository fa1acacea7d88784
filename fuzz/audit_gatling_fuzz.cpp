// Fuzz target: Gatling's simulation.log (src/audit/gatling_reader): every record, the bad lines and the
// notes.
#include <cstddef>
#include <cstdint>

#include "audit/gatling_reader.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto reader = openloop::audit::GatlingReader::open(openloop::fuzz::audit_input(data, size));
  if (!reader) return 0;
  openloop::audit::Record r;
  for (int i = 0; i < 1'000'000; ++i) {
    auto more = (*reader)->next(r);
    if (!more || !*more) break;
  }
  (void)(*reader)->notes();
  return 0;
}
