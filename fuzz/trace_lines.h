// The fuzz targets' shared reading of a trace: the input read by a TraceReader (skip_bad on, so every line is
// parsed) and each record rendered as the request it would send.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "http/request_buffer.h"
#include "workload/trace_privacy.h"
#include "workload/trace_reader.h"

namespace openloop::fuzz {

/// Reads every record of `data` with `splitter` and `parser` (a bad unit skipped), applies the privacy rules
/// and renders each record; the reader's bounded loop ends at the input's end.
inline void read_all(std::unique_ptr<workload::TraceSplitter> splitter,
                     std::unique_ptr<workload::TraceLineParser> parser) {
  workload::TraceReader reader("fuzz", std::move(splitter), std::move(parser), /*skip_bad=*/true);
  workload::TracePrivacy privacy({}, {"token"});
  workload::TraceRecord record;
  http::RequestBuffer buffer;
  for (int i = 0; i < 100000; ++i) {
    auto more = reader.next(record);
    if (!more || !*more) break;
    privacy.apply(record);
    workload::render_record(record, "fuzz:80", {}, buffer);
  }
}

inline std::unique_ptr<std::istream> stream_of(const std::uint8_t* data, std::size_t size) {
  return std::make_unique<std::istringstream>(std::string(reinterpret_cast<const char*>(data), size));
}

}  // namespace openloop::fuzz
