// A line-format trace (an access log, JSONL) sorted by its records' times, offline, in bounded memory: chunks
// sorted in memory and spilled to unlinked temporary files, then merged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "core/error.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// How much a sort may hold.
struct TraceSortLimits {
  /// Text held before a chunk is sorted and spilled (64 MiB); memory is about this plus 48 bytes a line.
  std::size_t chunk_bytes = std::size_t{64} << 20;
  /// Chunks a sort may spill (each one open file during the merge): 4096 × 64 MiB = 256 GiB of trace.
  std::size_t max_chunks = 4096;
};

/// What a sort did.
struct TraceSortCounts {
  std::uint64_t records = 0;       ///< lines written
  std::uint64_t out_of_order = 0;  ///< records stamped before a record above them in the file
  std::uint64_t chunks = 0;        ///< chunks spilled to temporary files (0: sorted in memory)
};

/// Reads every record of `reader` and hands each one's unit text (the line as written), in stamp order (file
/// order among equal stamps), to `write`, one call per line without its break. Bad lines are errors or, with
/// the reader's skip_bad, left out (reader.skipped()); lines without a request are left out
/// (reader.no_requests()). Errors: the reader's; a temporary file that cannot be written or read (runtime);
/// more than limits.max_chunks chunks (usage, naming the limit); `write`'s.
Result<TraceSortCounts> sort_trace(TraceReader& reader, const TraceSortLimits& limits,
                                   const std::function<Result<void>(std::string_view line)>& write);

}  // namespace openloop::workload
