// The canonical trace format, JSON Lines: one request a line, as openloop reads and writes traces.
#pragma once

#include <string>
#include <string_view>

#include "workload/trace_reader.h"

namespace openloop::workload {

/// One JSON object a line:
///   {"t": 12.345, "method": "GET", "url": "/path?q", "headers": {"Name": "value"}, "body": "...",
///    "session": "..."}
///  - t (required): seconds from any origin (a number; only differences count), or an RFC 3339 string
///    ("2026-12-01T10:00:00.123Z").
///  - url (required): a path starting with '/' (query included), or an absolute http(s) URL whose scheme and
///    authority are dropped (the run's --target replaces them).
///  - method: an HTTP token (default GET). headers: an object of string values. body (text) or body_b64
///    (base64), not both. session: a string or a number. status (the response's, an integer) and
///    response_bytes (its body's size) when logged: read by `trace inspect`, never sent. Other fields are
///    ignored.
/// Header names must be tokens and values single lines; the url has no spaces or control characters.
class JsonlTraceParser final : public TraceLineParser {
 public:
  Result<ParsedUnit> parse(std::string_view line, TraceRecord& out) override;

 private:
  std::string m_scratch;  // parse_jsonl_flat()'s (workload/jsonl_flat.h)
};

/// The same line read as a JSON document (nlohmann): what JsonlTraceParser::parse does with a line
/// parse_jsonl_flat() (workload/jsonl_flat.h) does not take, and the reference its tests compare with. `out`
/// must be cleared.
Result<ParsedUnit> parse_jsonl_document(std::string_view line, TraceRecord& out);

/// Appends `r` to `out` as one canonical JSONL line (ending in '\n'), as JsonlTraceParser reads it back: "t" as an RFC
/// 3339 UTC string with nanoseconds (exact) when the stamp is after 2000-01-01 (a log's Unix-epoch time), else as
/// seconds from the trace's own origin (nine decimals); "method", "url" (the target; one that is not UTF-8 has every
/// byte past ASCII percent-encoded), "headers" (an object; a name repeated is joined with ", "), "body" (UTF-8 text) or
/// "body_b64" (anything else), "session", "status" and "response_bytes" when the record has them.
/// Error (usage): a header value that is not UTF-8 (JSON text cannot hold it), naming the header.
Result<void> append_jsonl_record(const TraceRecord& r, std::string& out);

/// Encodes `bytes` as standard base64 with padding.
std::string encode_base64(std::string_view bytes);

/// True when `text` is well-formed UTF-8.
bool is_utf8(std::string_view text);

/// Decodes standard base64 (padding optional, no line breaks). Error (usage) names what was wrong.
Result<std::string> decode_base64(std::string_view text);

/// `url` as a request target: a path (kept as it is) or an absolute http(s) URL (its path and query, "/" when
/// it has none). Error (usage): anything else, or a target with spaces or control characters.
Result<std::string> trace_target(std::string_view url);
/// trace_target() into `out` (its capacity reused).
Result<void> trace_target_into(std::string_view url, std::string& out);

}  // namespace openloop::workload
