// Fuzz target: k6's --out csv (src/audit/k6_csv_reader): every record, the bad lines and the notes.
#include <cstddef>
#include <cstdint>

#include "audit/k6_csv_reader.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto reader = openloop::audit::K6CsvReader::open(openloop::fuzz::audit_input(data, size));
  return openloop::fuzz::drain_audit_reader(reader);
}
