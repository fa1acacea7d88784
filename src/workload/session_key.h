// Which of a trace record's values names its session (--session-key), and that value as a 64-bit hash: the
// key itself is a credential more often than not (a session cookie, a bearer token) and is never kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "workload/trace_record.h"

namespace openloop::workload {

/// --session-key ip | header:NAME | cookie:NAME | field. Default (none): every record is independent (open).
struct SessionKey {
  enum class Kind : std::uint8_t {
    none,    ///< no sessions: every record replayed on its own time
    ip,      ///< the client address a log records ($remote_addr, Apache's %h): TraceRecord::session
    header,  ///< the value of the recorded request header `name` (case-insensitive), e.g. Authorization
    cookie,  ///< the value of cookie `name` in the recorded Cookie header
    field    ///< the record's own session value: JSONL's "session", HAR's pageref (a log's client address)
  };
  Kind kind = Kind::none;
  std::string name;  ///< header: the header's name; cookie: the cookie's name; else empty

  bool any() const { return kind != Kind::none; }
  /// As given: "ip", "header:X-User", "cookie:sid", "field"; "" for none.
  std::string text() const;
};

/// Parses "ip" | "header:NAME" | "cookie:NAME" | "field" (NAME an HTTP token); error (usage) names `what` (the
/// flag or the plan's place) and what is accepted.
Result<SessionKey> parse_session_key(std::string_view text, std::string_view what);

/// The hash of `r`'s session under `key`, read from the record as recorded (before the privacy rules drop
/// Cookie and Authorization): 0 when the key is none or the record has no such value (the record is then
/// independent), else a stable 64-bit hash of the value (the same in every process and shard, never 0).
/// Allocation-free.
std::uint64_t session_hash(const SessionKey& key, const TraceRecord& r);

}  // namespace openloop::workload
