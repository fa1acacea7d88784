// The plan of one `run`: target, request, workload model, client policy and run length, fully validated.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/redact.h"
#include "core/time.h"
#include "engine/coalesce_auto.h"
#include "engine/protocol.h"
#include "engine/response_capture.h"
#include "engine/retry_policy.h"
#include "engine/spin_budget.h"
#include "http/request.h"
#include "net/resolver.h"
#include "results/judging/model.h"
#include "net/url.h"
#include "workload/arrival_schedule.h"
#include "workload/duration_distribution.h"
#include "workload/rate_profile.h"
#include "workload/replay_plan.h"
#include "workload/scenario.h"
#include "workload/shard.h"

namespace openloop::engine {

/// The plan's load model (results/judging/model.h); a plan is never `mixed`.
using results::Model;
using results::to_string;

/// Turns a request body rendered from a template into the bytes sent: a gRPC call's JSON message into its
/// framed protobuf (set by the command that prepares the call; the engine links no protobuf). Thread-safe.
class BodyEncoder {
 public:
  virtual ~BodyEncoder() = default;
  /// Writes the encoded `rendered` into `out` (cleared first, its capacity reused) and returns true; or
  /// returns false with why it does not encode in `out`.
  virtual bool encode(std::string_view rendered, std::string& out) const = 0;
};

/// One request the run can send: constant bytes rendered once, or a template rendered per request.
struct RequestSpec {
  std::string name = "request";
  std::string method = "GET";
  /// The request when constant (templ null): its parts and its HTTP/1.1 bytes, built once (http::build_request).
  http::ConstantRequest request;
  const workload::RequestTemplate* templ =
      nullptr;        ///< set when the request draws variables (owned by `workload`), rendered per request
  double weight = 1;  ///< share in a weighted mix
  int success_min = 100, success_max = 399;
  /// A gRPC call: bit c set = grpc-status c is a success (--grpc-success); 0 = judged by the status range.
  std::uint32_t grpc_success = 0;
  /// Set with templ: the rendered body is encoded per request by this (owned by RunPlan::body_encoder).
  const BodyEncoder* encoder = nullptr;
  bool head() const { return method == "HEAD"; }
};

/// A step of an iteration or session: a request, then a think time before the next step.
struct Step {
  std::size_t request = 0;  ///< index into RunPlan::requests
  workload::DurationDistribution think_after;
};
/// What an arrival does when every connection is busy and the pool is at its cap.
enum class OnSaturation : std::uint8_t { drop, queue };

class RequestLog;

struct RunPlan {
  // Target and request.
  std::string url_text;
  /// What every output shows redacted of the target and the requests' names (--redact-param): applied where
  /// they are first written down (RunInfo::target, a request's name, describe()).
  Redactor redact;
  net::Url url;
  std::vector<net::Endpoint> endpoints;  ///< resolved once at start
  std::string method = "GET";
  std::vector<http::Header> headers;
  std::string body;
  std::vector<RequestSpec> requests;  ///< at least one; several = a weighted mix (or the steps' requests)
  bool round_robin = false;  ///< pick the mix's requests in turn (a targets file without weights), not by weight
  bool insecure = false;              ///< skip TLS verification
  std::string ca_file;
  /// --server-timing-metric: which Server-Timing metric is the server's time (empty: the sum of every
  /// metric's dur).
  std::string server_timing_metric;
  /// Windows of the measured period, [from, to) in seconds after the warm-up, whose response times are checked
  /// for independence on their own (a ramp's steps, a probe's phases: results::RunChecks::windows).
  std::vector<std::pair<double, double>> check_windows;

  // Workload.
  Model model = Model::open;
  workload::RateProfile profile =
      workload::RateProfile::constant(0, Nanos(0));  ///< covers warm-up + duration
  workload::ArrivalKind arrival = workload::ArrivalKind::constant;
  std::uint64_t seed = 1;
  std::uint64_t users = 0;  ///< closed and pacing models
  workload::DurationDistribution
      think;                       ///< closed/pacing: after each iteration; sessions: default between steps
  Nanos pacing{0};                 ///< pacing model: an iteration starts at most every `pacing` per user
  double max_rate = 0;             ///< pacing model: iterations per second across all users (0 = no cap)
  std::uint64_t max_sessions = 0;  ///< sessions model: concurrent sessions cap (0 = derived)
  std::vector<Step> steps;  ///< iteration (closed/pacing) or session steps; empty = one request from the mix
  /// --replay: the arrivals are a recorded trace's (open model), each record sent as its own request (the
  /// plan's one RequestSpec names it; `headers` (-H) are added to every record); null otherwise. `profile`
  /// then holds the trace's mean rate over the run, for sizing and the offered rate.
  std::shared_ptr<const workload::ReplayPlan> replay;

  /// Host shards: which part of this plan this process runs (--shard, or the engine's environment). Every
  /// other field describes the WHOLE plan, as every shard records it; the *_part() functions give this
  /// shard's part.
  workload::ShardSpec shard;

  // Client policy and rig.
  unsigned threads = 1;
  /// Connections the pool may open, total across threads (open); = users (closed), = max_sessions
  /// (sessions). Descriptors are reserved for these (engine/coordinator.cpp).
  std::uint64_t max_connections = 0;
  /// The concurrency cap (open model): attempts in flight at once, total across threads; 0 = max_connections.
  /// HTTP/1.1 carries one attempt per connection, so every plan today has the two equal (the flags set one
  /// number); a multiplexed protocol opens fewer connections than slots.
  std::uint64_t max_in_flight = 0;
  OnSaturation on_saturation = OnSaturation::drop;
  /// A worker spins (polls without blocking) through waits shorter than this instead of sleeping on a timer;
  /// unset: the measured CPU cost of one timed wait on this machine (engine/worker.cpp).
  std::optional<Nanos> spin_below;
  /// --spin-budget: with spin_below unset, the share of one core (0, 1] each worker's spinning may use, scaled
  /// down while the worker waits for a CPU (engine/spin_budget.h).
  double spin_budget = k_default_spin_budget;
  /// Open model: a worker wakes at most once per `coalesce` (0 = off). It sends every arrival due by then
  /// (each up to that late, measured as send lateness) and sleeps through responses meanwhile: their times
  /// come from the kernel's receive stamps, so response and service times do not include the wait.
  /// k_coalesce_auto (engine/coalesce_auto.h): the window follows the measured service times, per interval.
  Nanos coalesce{0};
  /// --accept-bunching: the self-check of the achieved arrival process still runs and is reported, but a
  /// failure (sends bunched or uneven against the plan) does not make the run INVALID.
  bool accept_bunching = false;
  Nanos timeout = std::chrono::seconds(5);
  /// Goodput deadline (--deadline): a success counts as ok only when it ends within this of its intended
  /// time. 0, or not below `timeout`: the timeout itself. The client still waits up to `timeout`, so a late
  /// success counts as completed (throughput) but not as ok (goodput).
  Nanos deadline{0};
  /// Send-lateness floor of the verdict (--max-lateness); 0 = the default bound (results::VerdictBounds).
  Nanos max_lateness{0};
  int success_min = 100;  ///< a completed response is ok when success_min ≤ status ≤ success_max
  int success_max = 399;
  std::uint32_t grpc_success = 0;  ///< a gRPC call's success statuses (RequestSpec::grpc_success), else 0
  std::shared_ptr<const BodyEncoder> body_encoder;  ///< the requests' encoder, when they have one
  RetryPolicy
      retry;  ///< retries, per-try timeout, budget and the deadline header (default: one attempt, none)

  // Scenario files: the loaded plan (templates, variables) this run belongs to, and its scenario.
  std::shared_ptr<const workload::WorkloadPlan> workload;
  std::size_t scenario_index = 0;
  /// The values the plan's `setup:` steps captured (variable index, value), set into every worker's variables
  /// before the load begins (engine/setup_steps.h); empty without setup steps.
  std::vector<std::pair<std::size_t, std::string>> setup_values;
  std::string scenario;        ///< name; "" for a plan built from flags
  Nanos start_offset{0};       ///< from the common start of all scenarios
  /// --start-at: the common start on the steady clock (the schedule begins then, even if the workers' set-up
  /// ran past it); the epoch (default) = no anchor: k_start_delay after run_all() has set up the workers.
  SteadyTime start_at{};
  unsigned worker_base = 0;    ///< this plan's first worker among all scenarios' workers (variable streams)
  unsigned workers_total = 0;  ///< workers of all scenarios together (0: this plan's threads)

  /// --log-requests: where the workers hand each request's record (ring plan.worker_base + index); not owned.
  RequestLog* request_log = nullptr;
  /// How long resolving the target's name took (once, before the run); −1 ns when not timed.
  Nanos dns_time{-1};

  // Run length.
  Nanos warmup{0};
  Nanos duration{0};
  Nanos interval = std::chrono::seconds(1);

  // Protocol and response access (not in describe(): neither changes what a run records today).
  /// What the plan asks for (--protocol): auto speaks HTTP/1.1 over plain TCP and lets ALPN choose between
  /// h2 and http/1.1 over TLS; h1 and h2 speak only that (h2 over plain TCP: prior knowledge, h2c).
  ProtocolChoice protocol = ProtocolChoice::automatic;
  /// HTTP/2: the most streams open at once on one connection (--max-streams); the peer's
  /// SETTINGS_MAX_CONCURRENT_STREAMS lowers it per connection.
  std::uint32_t max_streams = 100;
  /// HTTP/2: the flow-control window this client opens per stream and for the connection, in bytes, 1 ..
  /// 2^31 − 1 (--h2-window; h2load's default 2^30 − 1, so a body is never held back by the client).
  std::uint32_t h2_window = (1U << 30) - 1;
  /// Keep parts of each response for a later step to read (flows set it from a scenario file; no flag).
  /// Unset, the default: no sink exists and the codecs run no code for one.
  std::optional<ResponseCapture> capture;

  /// The ALPN protocol ids offered over TLS, most preferred first, derived from `protocol` (static storage):
  /// auto {"h2", "http/1.1"}, h1 {"http/1.1"}, h2 {"h2"}.
  std::span<const std::string_view> alpn_offer() const { return engine::alpn_offer(protocol); }

  /// The deadline goodput counts against: `deadline` when set and shorter than `timeout`, else `timeout`.
  Nanos goodput_deadline() const { return deadline.count() > 0 && deadline < timeout ? deadline : timeout; }
  /// This shard's users (closed, pacing) and sessions cap: largest-remainder parts of the whole plan's, adding
  /// up over the shards; the connection cap's part is at least 1. The whole values when unsharded.
  std::uint64_t users_part() const { return shard.part_of(users); }
  std::uint64_t max_sessions_part() const { return shard.cap_part(max_sessions); }
  std::uint64_t max_connections_part() const { return shard.cap_part(max_connections); }
  /// This shard's part of the concurrency cap (max_in_flight, or max_connections when unset), at least 1.
  std::uint64_t max_in_flight_part() const {
    return shard.cap_part(max_in_flight > 0 ? max_in_flight : max_connections);
  }
  /// This shard's part of the pacing model's --max-rate (0 = no cap).
  double max_rate_part() const { return max_rate * shard.share(); }
  /// True for models driven by users rather than an arrival schedule.
  bool user_driven() const { return model == Model::closed || model == Model::pacing; }
  /// Every option of the whole plan, for the results file; sharded, plus "shard": {index, count, weights,
  /// share, poisson_split} (so the plan without "shard" is the same in every shard's results).
  nlohmann::json describe() const;
};

/// The most arrivals per second one worker thread is asked to generate. A worker issues, sends and reads each
/// request in a few microseconds at best (about 100k–300k/s measured on a core), so a plan far above this is
/// a typo or a unit mistake, and honouring it would bury the worker under a backlog it can never work off.
inline constexpr double k_max_rate_per_thread = 10e6;

/// Refuses a plan the machine cannot possibly generate, before anything is sent: an open or sessions plan
/// whose peak arrival rate per worker thread is above k_max_rate_per_thread, or whose gap between arrivals at
/// that peak would be shorter than `clock_resolution` (intended times could not be told apart). Every run
/// path (flags, scenario files, ramp steps, probe phases) goes through engine::run_all, which calls this.
/// Error (usage): names the rate, the maximum for the plan's threads and what to change.
Result<void> check_feasible(const RunPlan& plan, Nanos clock_resolution);

/// Default connection cap by Little's law: rate × timeout (the most requests that can be outstanding when
/// every one runs to its deadline) plus headroom, at least 2 per thread, capped by `fd_limit` minus a
/// reserve.
std::uint64_t default_max_connections(double peak_rate, Nanos timeout, unsigned threads,
                                      std::uint64_t fd_limit);

/// True when a connection of this plan may speak HTTP/2: --protocol h2, or auto over https (ALPN may choose h2).
bool may_speak_http2(const RunPlan& plan);

/// Splits an open plan's concurrency cap (`plan.max_connections` on entry: --max-connections or Little's
/// law) into slots (`max_in_flight`) and connections (`max_connections`) for its protocol. `connections` > 0
/// (--connections): that many connections, with max_streams slots each when HTTP/2 is possible, at most the
/// cap. Else one connection per slot, opened as needed: over HTTP/2 (prior knowledge, or ALPN's choice) the
/// pool fills one's streams (the peer's limit, once its SETTINGS came) before it opens the next one.
/// Other models keep one connection per user or session.
void size_connections(RunPlan& plan, std::uint64_t connections);

}  // namespace openloop::engine
