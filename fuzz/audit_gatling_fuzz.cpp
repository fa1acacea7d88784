// Fuzz target: Gatling's simulation.log (src/audit/gatling_reader): every record, the bad lines and the
// notes.
#include <cstddef>
#include <cstdint>

#include "audit/gatling_reader.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto reader = openloop::audit::GatlingReader::open(openloop::fuzz::audit_input(data, size));
  return openloop::fuzz::drain_audit_reader(reader);
}
