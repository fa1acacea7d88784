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
///    $request_body as the body ("-" = none); $remote_addr as the session.
/// Other variables are read over.
class NginxTraceParser final : public TraceLineParser {
 public:
  /// Error (usage): a format with no time ($msec, $time_local, $time_iso8601) or no request ($request, or
  /// $request_method with $request_uri or $uri), naming `what`.
  static Result<NginxTraceParser> create(NginxLogFormat format, std::uint64_t seed, std::string_view what);

  Result<void> parse(std::string_view line, TraceRecord& out) override;
  bool spreads_seconds() const override { return !m_msec; }

 private:
  struct HeaderVariable {
    std::size_t index;
    std::string name;
  };
  NginxLogFormat m_format;
  std::uint64_t m_seed = 1;
  std::optional<std::size_t> m_msec, m_time_local, m_time_iso, m_request_time;
  std::optional<std::size_t> m_request, m_method, m_uri, m_args, m_body, m_remote_addr;
  bool m_uri_is_request_uri = false;
  std::vector<HeaderVariable> m_headers;
  std::vector<std::string_view> m_values;
};

/// Decimal seconds ("1700000000.123", "0.004") as nanoseconds; nullopt unless digits with an optional
/// fraction of at most 9 digits.
std::optional<Nanos> parse_decimal_seconds(std::string_view text);
/// nginx's $time_local ("10/Oct/2000:13:55:36 -0700") as nanoseconds since the Unix epoch.
std::optional<Nanos> parse_time_local(std::string_view text);
/// Decodes nginx's \xHH escapes (other text as it is).
std::string unescape_nginx(std::string_view text);

}  // namespace openloop::workload
