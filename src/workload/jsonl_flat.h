// A JSONL trace line read without building a JSON document: the replay's per-record path, where nlohmann's
// document cost several heap allocations a line. Only the common shape is taken; anything else is left to the
// full parser (workload/jsonl_trace.h), which gives the same record or the line's error.
#pragma once

#include <string>
#include <string_view>

#include "workload/trace_record.h"

namespace openloop::workload {

/// Reads `line` into `out` (cleared by the caller, its `line` kept) when it is one JSON object whose strings
/// are ASCII without \u escapes, nested at most 32 deep, whose known keys (t, url, method, headers, body,
/// body_b64, session, status, response_bytes) each appear once with the type JsonlTraceParser accepts and a
/// value it accepts: true, `out` then holds exactly the record JsonlTraceParser would give. False for
/// anything else (a line it does not take, or a bad one), `out` then partly filled: clear it and use the full
/// parser. Writes into `out`'s strings and `scratch` (keys, values read over), so once they have grown to a
/// trace's longest values a line allocates nothing but its headers (TraceRecord::clear() drops their strings)
/// and a body_b64's decoding.
bool parse_jsonl_flat(std::string_view line, TraceRecord& out, std::string& scratch);

}  // namespace openloop::workload
