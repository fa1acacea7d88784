// The workload plan: target, defaults, named request templates, variables, and scenarios, each with its own
// workload model (open, closed, pacing, sessions), request mix or steps, start offset and duration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "core/time.h"
#include "http/request.h"
#include "net/url.h"
#include "workload/arrival_schedule.h"
#include "workload/duration_distribution.h"
#include "workload/flow_step.h"
#include "workload/rate_profile.h"
#include "workload/request_template.h"
#include "workload/variables.h"

namespace openloop::workload {

struct ReplayPlan;    // workload/replay_plan.h
struct GrpcPlanText;  // workload/grpc_call.h

/// How a scenario generates load (seed 001: production traffic is open, closed or partly open; test with the
/// same model).
enum class ModelKind : std::uint8_t {
  open,    ///< requests arrive on a schedule (rate or stages, constant or Poisson) whatever the target does
  closed,  ///< `vus` users each send, wait for the response, think, repeat: the load falls when the target
           ///< slows
  pacing,  ///< closed users whose iterations start at most every `pacing` each, or at most `max_rate` in all
  sessions,  ///< partly open: sessions arrive on a schedule; each runs its steps in order, each step waiting
             ///< for the previous response (closed inside a session)
};
/// "open" | "closed" | "pacing" | "sessions".
std::string_view to_string(ModelKind model);

/// A weighted choice among request templates: each arrival (open) or iteration (closed, pacing) sends one.
/// Immutable; pick() is O(log k), allocation-free and thread-safe (the Rng is the caller's).
class RequestMix {
 public:
  struct Entry {
    std::size_t request;  ///< index into WorkloadPlan::requests
    double weight;        ///< > 0, finite
  };
  RequestMix() = default;
  /// Preconditions (asserted): every weight finite and > 0.
  explicit RequestMix(std::vector<Entry> entries);

  /// The request index of one draw: entry i with probability weight_i / Σ weights. Preconditions: not empty.
  std::size_t pick(Rng& rng) const;
  const std::vector<Entry>& entries() const { return m_entries; }
  bool empty() const { return m_entries.empty(); }
  /// weight_i / Σ weights.
  double share(std::size_t i) const { return m_entries[i].weight / m_total; }

 private:
  std::vector<Entry> m_entries;
  std::vector<double> m_cumulative;  ///< running sums of the weights
  double m_total = 0;
};

/// One step of a sequence: send `request`, wait for its response, then think.
struct Step {
  std::size_t request;         ///< index into WorkloadPlan::requests
  DurationDistribution think;  ///< after the response; the scenario's think unless the step gives its own
  StepFlow flow;               ///< captures and checks on its response (docs/flows.md); empty for most steps
  std::string where;           ///< "plan.yaml:9:9: scenarios.shop.steps[2]" (messages about the step)
};

/// One scenario. Which fields apply depends on `model` (the loader refuses the others):
///  - open:     profile, arrival, seed; mix. Every arrival sends one request picked from the mix; its
///  intended time
///              is `start` + the schedule's offset.
///  - closed:   vus, think; mix or steps. Each user repeats an iteration (one mix pick, or every step in
///  order),
///              thinking after each request; the next request starts when the think ends (no schedule:
///              latency is service time; label CLOSED).
///  - pacing:   vus; pacing or max_rate; think (between steps); mix or steps. pacing > 0: each user starts
///              iteration i+1 at max(start of iteration i + pacing, end of iteration i) (an overrun starts
///              the next at once). max_rate > 0: iterations start at most max_rate per second in all:
///              iteration starts are spaced at least 1/max_rate apart (a worker with a share f of the users
///              uses max_rate·f), and slots missed while every user was busy are not made up. Configured
///              iterations/s = vus / pacing, or max_rate; report it against the achieved rate.
///  - sessions: profile (of session starts), arrival, seed, max_sessions; steps. A session's intended start
///  is
///              `start` + the schedule's offset; step 1 is due then, step k+1 when step k's response has
///              arrived and its think has passed. A session that cannot start because max_sessions are
///              running is dropped and counted.
/// In steps, the think after the last step is skipped by sessions (the session ends) and by pacing (the
/// pacing wait follows), and kept by closed (then the next iteration begins).
struct ScenarioPlan {
  std::string name;
  ModelKind model = ModelKind::open;
  Nanos start{0};     ///< offset from the run's start
  Nanos duration{0};  ///< from `start`; for open and sessions, the profile's duration

  // Arrivals (open: requests; sessions: session starts).
  RateProfile profile = RateProfile::constant(0, Nanos(0));
  ArrivalKind arrival = ArrivalKind::constant;
  std::uint64_t seed = 1;  ///< arrival schedule seed; also seeds mix picks and think draws (see scenario_rng)

  // Users (closed, pacing).
  std::uint64_t vus = 0;
  DurationDistribution think;  ///< closed, pacing, sessions: default think after each request
  Nanos pacing{0};             ///< pacing: per-user iteration interval, or 0
  double max_rate = 0;         ///< pacing: global cap on iterations per second, or 0
  std::uint64_t max_sessions =
      0;  ///< sessions: most sessions running at once; 0 = not given (engine's limit)
  /// closed, pacing, sessions with steps: a cookie jar per session or iteration (`cookies: off`: none).
  bool cookies = true;

  /// open with `arrival: {replay: FILE, ...}`: the arrivals and their requests are a recorded trace's, read
  /// and checked once when the file is loaded (docs/replay.md); `profile` is then the trace's mean rate and
  /// `mix` is empty. Null otherwise.
  std::shared_ptr<const ReplayPlan> replay;
  RequestMix mix;           ///< open, closed, pacing: one request per arrival or iteration
  std::vector<Step> steps;  ///< closed, pacing, sessions: an iteration or session, in order

  /// Configured iterations per second at the profile's peak (open: requests; sessions: session starts;
  /// pacing: vus / pacing or max_rate); 0 for closed, whose rate is whatever the target allows.
  double configured_rate() const;
  /// Requests per iteration or session: steps.size(), or 1 for a mix.
  std::size_t requests_per_iteration() const { return steps.empty() ? 1 : steps.size(); }
};

/// The worker's Rng for a scenario's mix picks and think times (stream disjoint from arrivals and variables).
Rng scenario_rng(const ScenarioPlan& scenario, std::size_t scenario_index, unsigned worker);

/// Settings every request shares unless it says otherwise.
struct PlanDefaults {
  std::vector<http::Header>
      headers;  ///< sent with every request (a request's own header of the same name wins)
  Nanos timeout = std::chrono::seconds(5);  ///< the client's deadline, from the intended time
  StatusRange success;                      ///< 100-399 unless given
  /// `protocol`: "auto", "h1" or "h2" as written (checked when read); empty when not given (--protocol's).
  std::string protocol;
  /// `max_streams`, `h2_window`, `connections`: as --max-streams, --h2-window and --connections (checked when
  /// read, with the flags' bounds), for every scenario; 0 when not given. A flag given on the command line wins.
  std::uint32_t max_streams = 0;
  std::uint32_t h2_window = 0;
  std::uint64_t connections = 0;
};

/// Everything a scenario file describes, validated. Immutable once loaded; share it read-only across workers
/// (each worker makes its own RenderContext from `variables`).
struct WorkloadPlan {
  std::string source;  ///< the file it was loaded from ("" when built in code)
  std::string target_text;
  net::Url target;  ///< base URL: scheme, host, port and base path (no query)
  PlanDefaults defaults;
  std::uint64_t seed = 1;  ///< seeds the variables; scenarios derive their own seeds from it unless given
  VariableSet variables;
  std::vector<RequestTemplate> requests;
  std::vector<ScenarioPlan> scenarios;
  /// `setup:` steps sent once, in order, before any scenario's load, and `teardown:` once after it (docs/flows.md).
  /// A name a setup step captures is read-only to every scenario: each request reads the setup's value.
  std::vector<Step> setup;
  std::vector<Step> teardown;
  std::vector<std::string> observe;  ///< `observe:` the --observe SPECs the file asks for (added to the flags')
  /// The requests that are gRPC calls (`call:`) and the plan's schema (`defaults.grpc`), as plain data read
  /// and checked as text here; the schema, the methods and the messages' encoding are cli's
  /// (cli/grpc_plan.h), so workload links no protobuf. Null when the plan holds no call.
  std::shared_ptr<const GrpcPlanText> grpc;

  std::optional<std::size_t> find_request(std::string_view name) const;
  /// The end of the last scenario: max(start + duration).
  Nanos length() const;
  /// A short human description: one line for the plan, two per scenario (model and load; requests), one per
  /// variable; a closed scenario gets the line on what a closed model hides.
  std::string describe() const;
};

}  // namespace openloop::workload
