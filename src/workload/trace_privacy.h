// What a replayed trace keeps of its records' secrets: credentials dropped on import, query parameters
// redacted, and the headers a connection of openloop's own must decide dropped too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "workload/trace_record.h"

namespace openloop::workload {

/// The value a redacted query parameter is sent with.
inline constexpr std::string_view k_redacted = "REDACTED";

/// Applied to every record before it is sent:
///  - Authorization, Cookie, Set-Cookie, Proxy-Authorization dropped (a trace of real traffic holds live
///    session tokens: replaying them acts as those users, and copies of the trace leak them), unless named in
///    `keep_headers` (case-insensitive);
///  - Host, Content-Length, Transfer-Encoding, Connection, Keep-Alive, TE, Upgrade, Proxy-Connection always
///    dropped: the target and openloop's own connection decide them;
///  - the values of the query parameters named in `redact_params` replaced by k_redacted.
/// Stateless but for its counts; not thread-safe (one per reader).
class TracePrivacy {
 public:
  TracePrivacy() = default;
  TracePrivacy(std::vector<std::string> keep_headers, std::vector<std::string> redact_params);

  /// Applies the rules to `r` in place.
  void apply(TraceRecord& r);

  /// Records that had a credential header dropped, and parameters redacted, so far.
  std::uint64_t credentials_dropped() const { return m_credentials_dropped; }
  std::uint64_t params_redacted() const { return m_params_redacted; }

 private:
  void redact_query(std::string& target);

  std::vector<std::string> m_keep;    // lower case
  std::vector<std::string> m_redact;  // as given (parameter names are case-sensitive)
  std::uint64_t m_credentials_dropped = 0;
  std::uint64_t m_params_redacted = 0;
};

/// True when `a` and `b` are equal ignoring ASCII case.
bool iequals_ascii(std::string_view a, std::string_view b);

}  // namespace openloop::workload
