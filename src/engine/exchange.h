// One attempt of a logical request, in flight: the unit of work the worker accounts, independent of the
// connection and protocol that carry it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/time.h"
#include "http/request_buffer.h"
#include "http/request_parts.h"
#include "http/response_sink.h"
#include "results/recording/phase_stats.h"

namespace openloop::engine {

class Connection;

/// One attempt of a logical request. A logical request is one intended arrival (or user step); with retries
/// it makes several attempts, one at a time, all on the same Exchange (it waits out its backoffs holding no
/// connection). Exchanges live in the worker's pool (engine/exchange_pool.h): allocated while the run warms
/// up, then reused, so a request allocates nothing in steady state. Times are absolute (steady clock).
///
/// Who writes what: the worker fills the request fields and owns the list links; the connection and its codec
/// (engine/codec.h) write the carrier and the phase stamps; nothing else.
struct Exchange {
  // ---- the request (worker)
  SteadyTime intended{};
  /// When the generator started on the logical request (its first attempt took a connection), or, for a
  /// request whose connection writes once per loop round (stamp_at_write), when its bytes were written.
  SteadyTime sent{};
  /// The first attempt's send lateness and `sent` are still to be taken: at the write that carries it (the
  /// connection defers writes to the end of the loop round, engine/connection.h), or at `sent` when the
  /// attempt ends unwritten.
  bool stamp_at_write = false;
  SteadyTime deadline{};  ///< this attempt's: min(attempt start + per-try timeout, intended + timeout)
  std::int64_t interval = 0;
  /// The request, without this attempt's own header: the plan's constant one, or `rendered`. Null between
  /// attempts.
  const http::RequestParts* parts = nullptr;
  /// A constant request's HTTP/1.1 bytes, built with the plan (the HTTP/1.1 codec sends them as they are when
  /// the attempt adds no header); empty for a rendered request (the codec serializes `parts`).
  std::string_view prebuilt_http1;
  /// A header this attempt adds to its request (the remaining deadline, --send-deadline): the plan's name and
  /// the value; empty name: none. The codec serializes it with the request.
  std::string_view extra_header;
  std::int64_t extra_header_value = 0;
  std::uint32_t bytes_out = 0;  ///< the request's size on the wire (Connection::request_size), for the log
  std::uint32_t request = 0;  ///< index into the plan's requests
  std::int32_t user = -1;  ///< the user or session that sent it (its holder); −1 for an open-model arrival
  /// --session-key: the replayed session it belongs to (workload::SessionPacer's index); −1: none.
  std::int32_t replay_session = -1;
  bool head = false;       ///< HEAD: the response has no body
  // Retries (engine/retries.cpp).
  bool logical_sent = false;  ///< some attempt's bytes went out (the logical request counts as sent once)
  std::uint16_t attempt = 1;  ///< 1 = the first attempt
  /// Times this logical request was sent again because the server never processed it (ExchangeError::
  /// unprocessed); not attempts of the retry policy.
  std::uint8_t resends = 0;
  bool resending = false;  ///< the attempt in flight is a resend of the same attempt (not counted a retry)
  SteadyTime attempt_start{};                      ///< when this attempt took its connection
  Nanos last_backoff{0};  ///< the wait before this attempt (decorrelated jitter grows from it)
  double retry_cost = 0;  ///< what the budget charged for this attempt (0 for the first)
  /// The phases of the last attempt: all of them when it received a response, those it reached when it failed
  /// or timed out (Connection::reached_phases()); all −1 before any attempt ended.
  results::AttemptPhases phases{};
  std::uint64_t bytes_in = 0;  ///< that response's bytes (for the per-request log)
  /// Where the codec puts what the plan keeps of the response (status, named headers, the body up to a cap);
  /// null, the default, when no plan asks (no code runs for it).
  http::ResponseSink* sink = nullptr;
  /// A templated request rendered for this logical request, every attempt's (capacity reused from one request
  /// to the next).
  http::RequestBuffer rendered;
  /// `rendered` holds the request with its session's Cookie header (a flow's cookie jar), whether or not the
  /// plan's request is templated: every attempt sends it.
  bool with_cookies = false;

  // ---- the carrier (connection and codec)
  Connection* connection = nullptr;  ///< the connection carrying this attempt; null between attempts
  Exchange* carrier_next = nullptr;  ///< the connection's own list (exchanges waiting for it to be ready)
  bool new_connection = false;       ///< the first exchange on its connection's socket (it pays the setup)
  /// 1 + the id of the connection that carried the last attempt (0: none yet); kept after it ends, for the log.
  std::uint32_t carrier_id = 0;
  /// The HTTP/2 stream of the last attempt (0: none, or HTTP/1.1); kept after it ends, for the log.
  std::int32_t stream_id = 0;
  bool first_byte_seen = false;
  SteadyTime write_start{};  ///< when its bytes could first be written (phase stamps: time to first byte)
  SteadyTime first_byte{};   ///< when the first byte of its response arrived

  // ---- the worker's in-flight lists (engine/in_flight.cpp)
  enum class List : std::uint8_t { none, by_deadline, by_timer };
  Exchange* prev = nullptr;
  Exchange* next = nullptr;
  List list = List::none;
  std::uint32_t id = 0;          ///< index in the worker's exchange pool (timer cookies)
  std::uint32_t generation = 0;  ///< bumped per timed attempt, so a stale deadline timer is ignored

  /// Makes the exchange a fresh first attempt (keeps `id`, `generation`, `sink` and the capacity of
  /// `rendered`).
  void reset_request() {
    const std::uint32_t keep_id = id, keep_generation = generation;
    http::ResponseSink* keep_sink = sink;
    http::RequestBuffer keep_rendered = std::move(rendered);
    *this = Exchange{};
    sink = keep_sink;
    id = keep_id;
    generation = keep_generation;
    rendered = std::move(keep_rendered);
  }
};

}  // namespace openloop::engine
