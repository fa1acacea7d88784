// A worker's flows: each session's (or closed user's) captured values, put into the requests of its later
// steps, and the captures and checks run on each step's response, with what a failure does to the session.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/response_capture.h"
#include "http/cookie_jar.h"
#include "http/response_sink.h"
#include "net/url.h"
#include "results/recording/interval_stats.h"
#include "workload/regex.h"
#include "workload/scenario.h"
#include "workload/session_data.h"

namespace openloop::engine {

/// What a scenario's flow steps need kept of each response (engine/response_capture.h): the headers their
/// captures and checks name (Set-Cookie for cookie captures and for the cookie jar, on unless `cookies:
/// off`), and the body up to k_flow_body_cap when a JSON, regex or body capture or a JSON or body check reads
/// it. Nullopt when no step has a capture or check, the scenario has no data rows (`data_rows`: it has
/// `data:`), and it has no steps or no cookie jar.
std::optional<ResponseCapture> flow_response_capture(const workload::ScenarioPlan& scenario,
                                                     bool data_rows = false);

/// The most body a flow step reads (bytes): a longer body is searched in its first k_flow_body_cap bytes.
inline constexpr std::size_t k_flow_body_cap = 64 * 1024;
/// The longest header value a capture or check sees.
inline constexpr std::size_t k_flow_value_cap = 4096;

/// One worker's flow state: a slot per (user, captured variable), filled by captures and read by the renders
/// of later steps, a cookie jar per user (unless the scenario says `cookies: off`), and each user's data row
/// (a scenario with `data:`). Single-threaded (the worker's). Allocation-free once each slot and jar has held
/// its longest values.
class FlowRunner {
 public:
  /// `users`: the worker's users or session slots; `capture`: what the plan keeps of responses (the header
  /// order of its sinks), from flow_response_capture(scenario); `target`: the plan's URL (its host and scheme
  /// decide which cookies a request carries). `rows`: the dealer of the scenario's data rows for this worker
  /// (workload/session_data.h; its table must outlive this object); nullopt without `data:`.
  FlowRunner(const workload::ScenarioPlan& scenario, const workload::VariableSet& variables,
             const ResponseCapture& capture, std::size_t users, const net::Url& target,
             std::optional<workload::RowDealer> rows = std::nullopt);

  /// A session or iteration begins for `user`: its earlier captures and cookies are forgotten, and it takes
  /// its data row. False (nothing else changed) when the scenario's rows are unique and this worker has none
  /// left: the session cannot start.
  bool begin(std::uint32_t user);

  /// Stores the cookies of every Set-Cookie in `sink` (a response to `request_target`) in `user`'s jar, as
  /// http::CookieJar does (a cookie for another domain is ignored). No-op without a jar.
  void take_cookies(std::uint32_t user, const http::ResponseSink& sink, std::string_view request_target);
  /// The Cookie header value `user`'s jar sends with a request to `request_target` ("a=1; b=2"), or empty
  /// (no jar, or no cookie matches). Valid until the next call.
  std::string_view cookie_header(std::uint32_t user, std::string_view request_target);
  /// Before `user`'s step renders: its captured values and its data row's cells become the variables' values
  /// (views valid until the user's next capture; a cell's for the run).
  void before_step(std::uint32_t user, workload::VariableState& variables) const;

  /// What a step's response did to its flow.
  struct StepResult {
    std::uint32_t captures_failed = 0;
    std::uint32_t checks_failed = 0;
    bool stop = false;  ///< a failure, and the step's on_fail is stop
    /// Which failed: bit i for capture i, bit (captures + j) for check j (items past the 32nd share bit 31).
    std::uint32_t failed = 0;
  };
  /// Runs step `step`'s captures (into `user`'s slots) and checks on the response in `sink`, and counts their
  /// failures into `flows` (the step's interval). A capture that finds nothing takes its default, or fails
  /// (the slot keeps its earlier value). A value with control characters (CR, LF, NUL...) fails: it would
  /// break the request it goes into.
  StepResult after_response(std::uint32_t user, std::size_t step, const http::ResponseSink& sink,
                            results::FlowCounters& flows);
  /// Counts a session or iteration stopped by step `step`.
  static void count_stopped(std::size_t step, results::FlowCounters& flows);
  /// Why step `step`'s captures and checks fail on the response in `sink` to request `request` (its name):
  /// one clause per failure, joined by "; ", e.g. "capture token: nothing at $.data.token in login's response,
  /// status 200, 41 bytes"; empty when none fails. Runs them again (a capture stores its value again).
  /// Allocates: for setup steps and failure examples, not per request.
  std::string describe_failures(std::uint32_t user, std::size_t step, const http::ResponseSink& sink,
                                std::string_view request);
  /// Failure examples kept per step: one for each of its first k_flow_examples sets of failures.
  static constexpr std::size_t k_flow_examples = 3;
  /// A failure example of step `step` (the set `failed` of StepResult on the response in `sink` to request
  /// `request`): ("step 2 me", describe_failures()), the key "step 2 me (2)" for the step's second set.
  /// Nullopt, without allocating, for a set the step has an example of already or a step whose examples are
  /// full; at most k_flow_examples allocate per step.
  std::optional<std::pair<std::string, std::string>> example(std::uint32_t user, std::size_t step,
                                                             std::uint32_t failed,
                                                             const http::ResponseSink& sink,
                                                             std::string_view request);

 private:
  bool run_capture(const workload::Capture& c, std::uint32_t user, const http::ResponseSink& sink);
  bool run_check(const workload::Check& c, const http::ResponseSink& sink);
  std::optional<std::string_view> header(const http::ResponseSink& sink, const std::string& name) const;
  bool store(std::uint32_t user, std::size_t variable, std::string_view value);

  const workload::ScenarioPlan& m_scenario;
  std::vector<std::string> m_header_names;  ///< the sinks' header names, lower case, in their order
  std::vector<std::size_t> m_captured;      ///< the variables this scenario captures
  std::vector<std::size_t> m_slot_of;       ///< per variable of the plan: its slot, or npos
  std::vector<std::string> m_values;        ///< users × slots
  std::string m_scratch;                    ///< a JSON string's decoded text
  workload::RegexMatch m_match;
  std::vector<http::CookieJar> m_jars;      ///< per user; empty with `cookies: off`
  std::optional<std::size_t> m_set_cookie;  ///< Set-Cookie's index among the sinks' headers
  std::string m_host;                       ///< the target's host, lower case
  bool m_tls = false;
  std::string m_cookie_header;
  /// Per step: the sets of failures it has examples of (0: a free place).
  std::vector<std::array<std::uint32_t, k_flow_examples>> m_examples;
  std::optional<workload::RowDealer> m_rows;  ///< with `data:`
  std::vector<std::size_t> m_row;             ///< per user: its session's data row
};

}  // namespace openloop::engine
