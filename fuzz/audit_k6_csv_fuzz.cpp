// Fuzz target: k6's --out csv (src/audit/k6_csv_reader): every record, the bad lines and the notes.
#include <cstddef>
#include <cstdint>

#include "audit/k6_csv_reader.h"
#include "audit_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto reader = openloop::audit::K6CsvReader::open(openloop::fuzz::audit_input(data, size));
  if (!reader) return 0;
  openloop::audit::Record r;
  for (int i = 0; i < 1'000'000; ++i) {
    auto more = (*reader)->next(r);
    if (!more || !*more) break;
  }
  (void)(*reader)->notes();
  return 0;
}
