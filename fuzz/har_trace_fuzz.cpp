// Fuzz target: HAR documents (src/workload/har_trace): the streaming splitter over log.entries and each entry
// read as a request.
#include "trace_lines.h"
#include "workload/har_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  openloop::fuzz::read_all(std::make_unique<HarSplitter>("fuzz", openloop::fuzz::stream_of(data, size)),
                           std::make_unique<HarEntryParser>());
  return 0;
}
