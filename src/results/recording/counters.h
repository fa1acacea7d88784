// Per-interval counters of what happened to every intended request, and the conservation law they obey.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace openloop::results {

/// Why a request failed without a usable response (subset of outcomes, disjoint from timeouts and drops).
/// `generator`: the generator itself could not open a socket (out of file descriptors, memory or local ports):
/// its own failure, not the target's; any makes the run INVALID. The others are the target's (or the network's)
/// doing; docs/reliability.md lists which behaviour ends as which kind.
enum class ErrorKind : std::uint8_t { connect, reset, read, write, parse, tls, dns, generator, count_ };
inline constexpr std::size_t k_error_kinds = static_cast<std::size_t>(ErrorKind::count_);
/// "connect", "reset", ... as used in JSON and the terminal summary.
std::string_view to_string(ErrorKind kind);
/// gRPC's status codes, 0 (OK) to 16 (UNAUTHENTICATED): the size of Counters::grpc_status.
inline constexpr std::size_t k_grpc_statuses = 17;

/// What happened to the requests intended in one interval (or a whole run). Every intended request ends as
/// exactly one of completed, timeouts, errors, dropped or unfinished (DESIGN.md invariant 2).
struct Counters {
  std::uint64_t intended = 0;  ///< arrivals the schedule issued (open) or requests the users started (closed)
  std::uint64_t sent = 0;      ///< requests whose bytes were handed to the transport (⊆ intended)
  /// A full response arrived by the deadline (intended + timeout), any status (⊆ sent). A response read after
  /// the deadline is a timeout, so every completed request is either ok or has a bad status.
  std::uint64_t completed = 0;
  std::uint64_t ok = 0;        ///< completed with a status in --success (⊆ completed); goodput counts these
  std::uint64_t timeouts = 0;  ///< the deadline passed first (sent or still queued); censored at the deadline
  std::uint64_t dropped = 0;   ///< no connection free with the pool at its cap; never sent
  std::uint64_t unfinished = 0;  ///< still in flight when the run ended; censored at (end − intended)
  std::array<std::uint64_t, k_error_kinds> errors{};  ///< by kind
  std::array<std::uint64_t, 6> status_class{};  ///< completed by status class: [1]=1xx ... [5]=5xx, [0]=other
  std::uint64_t bytes_in = 0;                   ///< response bytes read (headers and body)
  std::uint64_t bytes_out = 0;                  ///< request bytes written
  std::uint64_t connections_opened = 0;         ///< TCP connections started (successfully or not)
  // Retries. A logical request (one intended arrival or user step) makes one attempt, or several under a
  // retry policy; every counter above counts logical requests, these count attempts.
  std::uint64_t attempts =
      0;  ///< attempts whose bytes were handed to the transport (≥ sent; = sent without retries)
  std::uint64_t retries = 0;  ///< of those, attempts after the first (attempts − first attempts sent)
  std::uint64_t retry_budget_denied =
      0;  ///< a retry was wanted (retryable, attempts and time left) but the budget said no
  /// Attempts sent again because the server never processed them (HTTP/2 REFUSED_STREAM, or streams above a
  /// GOAWAY's last stream id), outside the retry policy and its budget; each such attempt is in `attempts`
  /// (so attempts = sent + retries + resent) and the logical request still ends once.
  std::uint64_t resent = 0;
  /// Arrivals that found every connection (HTTP/1.1 at --max-connections) or stream (HTTP/2, fixed
  /// --connections at the peer's stream limit) busy and waited in the --on-saturation queue (⊆ intended; each
  /// ends as any other request); their waits are IntervalStats::slot_wait.
  std::uint64_t slot_waits = 0;
  /// gRPC calls (docs/grpc.md): the completed ones by their grpc-status code (OK = [0] ... UNAUTHENTICATED =
  /// [16]), beside status_class, which counts their HTTP status (200, a 2xx, for every call with a
  /// grpc-status); all zero for HTTP requests, so they add up to completed only in a run of calls.
  std::array<std::uint64_t, k_grpc_statuses> grpc_status{};
  std::uint64_t grpc_messages_in = 0;       ///< response messages of the completed calls
  std::uint64_t grpc_message_bytes_in = 0;  ///< their bytes (without the 5-byte length prefixes)

  std::uint64_t errors_total() const;
  /// intended == completed + timeouts + errors + dropped + unfinished.
  bool conserved() const;
  /// Completed but not ok: a status outside --success, or (with --deadline shorter than --timeout) a success
  /// after the deadline; completed − ok, so ok + bad_status = completed by definition.
  std::uint64_t bad_status() const { return completed - ok; }
  /// Empty when the counts add up (DESIGN.md invariant 2): conserved(), ok ≤ completed ≤ sent ≤ intended, and
  /// the status classes sum to completed (every completed request has one status; not checked when there are
  /// none, as in files written before they were counted), and the gRPC statuses to at most completed.
  /// Otherwise one sentence
  /// naming the numbers that disagree.
  std::string imbalance() const;
  void add(const Counters& other);
  /// Retry amplification: attempts / sent (logical requests sent); 0 when nothing was sent. Files written
  /// before attempts were counted (attempts 0, sent > 0) read as 1.
  double amplification() const;
  std::uint64_t& error(ErrorKind kind) { return errors[static_cast<std::size_t>(kind)]; }
  std::uint64_t error(ErrorKind kind) const { return errors[static_cast<std::size_t>(kind)]; }
  /// The completed gRPC calls (the sum of grpc_status).
  std::uint64_t grpc_calls() const;
};

}  // namespace openloop::results
