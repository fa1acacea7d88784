// nginx access logs as traces: a line split by its log_format (workload/nginx_log_format.h) into a request.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "workload/nginx_log_format.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// Reads the variables a replay needs from a log line:
///  - the start: $msec (seconds with milliseconds), else $time_iso8601 or $time_local (whole seconds, spread
///    uniformly within their second by Rng(seed, line): nginx stamps a line when the request ENDS, and a
///    second's requests are not all at its start); minus $request_time when logged (start = end − duration).
///  - the request: $request ("GET /path?q HTTP/1.1"), or $request_method with $request_uri (or $uri and
///    $args). nginx's \xHH escapes are decoded.
///  - headers: every $http_NAME ("-" = not sent), NAME's '_' as '-' and words capitalised (User-Agent);
///    $request_body as the body ("-" = none); $remote_addr as the session; $status and $body_bytes_sent as
///    the record's status and response size (never sent).
///  - a line whose request is empty (`"" 400`: a connection closed before it sent a request) is
///    ParsedUnit::no_request, counted apart by the reader.
/// Other variables are read over.
class NginxTraceParser final : public TraceLineParser {
 public:
  /// Error (usage): a format with no time ($msec, $time_local, $time_iso8601) or no request ($request, or
  /// $request_method with $request_uri or $uri), naming `what`.
  static Result<NginxTraceParser> create(NginxLogFormat format, std::uint64_t seed, std::string_view what);

  Result<ParsedUnit> parse(std::string_view line, TraceRecord& out) override;
  bool spreads_seconds() const override { return m_stamp.whole; }

  /// How a variable gives a time: its unit, whether it is the request's start (Apache's %t) or its end
  /// (nginx's stamps), whole seconds or finer.
  enum class TimeUnit : std::uint8_t { seconds, millis, micros, time_local, iso8601 };
  struct TimeVariable {
    std::string_view name;
    TimeUnit unit;
    bool at_start;  ///< the request's start (else its end: start = end − duration)
    bool whole;     ///< whole seconds: spread within the second by the seed
  };

 private:
  struct HeaderVariable {
    std::size_t index;
    std::string name;
  };
  struct Stamp {
    std::size_t index = 0;
    TimeVariable variable{};
    bool whole = false;
  };
  Result<Nanos> read_time(std::size_t index, const TimeVariable& v) const;

  NginxLogFormat m_format;
  std::uint64_t m_seed = 1;
  Stamp m_stamp;                     // the best stamp the format logs
  std::optional<Stamp> m_duration;   // $request_time (or Apache's %D, %T) when logged
  std::optional<std::size_t> m_request, m_method, m_uri, m_args, m_body, m_remote_addr, m_status, m_bytes;
  bool m_uri_is_request_uri = false;
  std::vector<HeaderVariable> m_headers;
  std::vector<std::string_view> m_values;
  std::string m_scratch;  // an escaped request or URI, decoded (kept between lines for its capacity)
};

/// Decimal seconds ("1700000000.123", "0.004") as nanoseconds; nullopt unless digits with an optional
/// fraction of at most 9 digits.
std::optional<Nanos> parse_decimal_seconds(std::string_view text);
/// nginx's $time_local ("10/Oct/2000:13:55:36 -0700") as nanoseconds since the Unix epoch.
std::optional<Nanos> parse_time_local(std::string_view text);
/// Decodes nginx's \xHH escapes, and \" and \\ (escape=json's, Apache's); other text as it is.
std::string unescape_nginx(std::string_view text);
/// unescape_nginx() into `out` (replaced; its capacity kept, so a parser reusing one string allocates nothing
/// once it has grown).
void unescape_nginx_into(std::string_view text, std::string& out);

}  // namespace openloop::workload
