// Fuzz target: canonical JSONL trace lines (src/workload/jsonl_trace), each record read written back as JSONL
// and read again.
#include "trace_lines.h"
#include "workload/jsonl_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::workload;
  openloop::fuzz::read_all(line_splitter("fuzz", openloop::fuzz::stream_of(data, size)),
                           std::make_unique<JsonlTraceParser>());
  TraceReader reader("fuzz", openloop::fuzz::stream_of(data, size), std::make_unique<JsonlTraceParser>(),
                     true);
  TraceRecord record, again;
  JsonlTraceParser parser;
  std::string line;
  for (int i = 0; i < 100000; ++i) {
    auto more = reader.next(record);
    if (!more || !*more) break;
    line.clear();
    if (!append_jsonl_record(record, line)) continue;
    line.pop_back();
    // What convert writes, run reads back: a record written must parse.
    if (!parser.parse(line, again)) __builtin_trap();
  }
  return 0;
}
