// One request of a recorded trace (an access log line, a JSONL record), as the trace readers give it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "http/request.h"
#include "http/request_buffer.h"

namespace openloop::workload {

/// A recorded request. Strings are reused from one record to the next by the readers (capacity kept).
struct TraceRecord {
  /// When the request started, in nanoseconds from the trace's own origin (any: the Unix epoch for logs, the
  /// JSONL file's own zero); only differences between records count.
  Nanos t{0};
  std::string method;  ///< an HTTP token, e.g. "GET"
  std::string target;  ///< path and query, starting with '/' (an absolute URL's host is dropped)
  std::vector<http::Header> headers;  ///< as recorded, in order (names validated as tokens, values one line)
  std::string body;
  std::string session;     ///< the record's session key when the trace has one ("" otherwise); not used yet
  int status = 0;          ///< the response's status when the trace logs it (0: not logged); not sent
  std::int64_t response_bytes = -1;  ///< the response body's size when logged (-1: not logged); not sent
  std::uint64_t line = 0;  ///< 1-based line of the record in its file (a HAR: its entry's index)

  /// Empties every field, keeping the strings' capacity.
  void clear() {
    t = Nanos{0};
    method.clear();
    target.clear();
    headers.clear();
    body.clear();
    session.clear();
    status = 0;
    response_bytes = -1;
    line = 0;
  }
};

/// Renders `r` as the request sent to `authority` (the --target's host[:port]) into `out`: its method,
/// target, headers and body, then `extra` (-H), each of which replaces a recorded header of the same name
/// (case-insensitive). POST, PUT and PATCH send Content-Length: 0 when the body is empty; a recorded
/// User-Agent is sent instead of openloop's. Allocation-free once `out` has grown to the largest record.
void render_record(const TraceRecord& r, std::string_view authority, std::span<const http::Header> extra,
                   http::RequestBuffer& out);

}  // namespace openloop::workload
