// Scenario → RunPlan mapping.
#include "engine/scenario_plans.h"

#include "engine/flow_runner.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "core/units.h"
#include "workload/grpc_call.h"

namespace openloop::engine {
namespace {

Model model_of(workload::ModelKind m) {
  switch (m) {
    case workload::ModelKind::open:
      return Model::open;
    case workload::ModelKind::closed:
      return Model::closed;
    case workload::ModelKind::pacing:
      return Model::pacing;
    case workload::ModelKind::sessions:
      return Model::sessions;
  }
  return Model::open;
}

// The first gRPC call scenario `s` sends (by its mix or its steps), or null.
const workload::GrpcCallText* first_call(const workload::WorkloadPlan& w, const workload::ScenarioPlan& s) {
  if (!w.grpc || s.replay) return nullptr;
  for (const auto& e : s.mix.entries())
    if (const auto* call = w.grpc->find(e.request)) return call;
  for (const auto& step : s.steps)
    if (const auto* call = w.grpc->find(step.request)) return call;
  return nullptr;
}

// gRPC needs HTTP/2: a scenario that holds a call, or any scenario of a grpc:// target, speaks it (by prior
// knowledge on http://, by ALPN on https://), and HTTP/1.1 asked for is refused, naming the call. Its calls
// send their deadline as grpc-timeout (the engine adds it to calls only), which --send-deadline would
// replace.
Result<void> speak_grpc(const workload::WorkloadPlan& w, const workload::ScenarioPlan& s,
                        const RunSettings& settings, RunPlan& p) {
  const workload::GrpcCallText* call = first_call(w, s);
  if (call == nullptr && !workload::is_grpc_url(w.target_text)) return {};
  if (p.protocol == ProtocolChoice::http1) {
    const std::string what = call != nullptr
                                 ? fmt::format("{} is a gRPC call", call->where)
                                 : fmt::format("{}: the target {} is gRPC", w.source, w.target_text);
    return usage_error(
        fmt::format("{}, which needs HTTP/2; scenario \"{}\" is asked for HTTP/1.1 ({}): drop it or "
                    "use h2",
                    what, s.name,
                    settings.protocol == ProtocolChoice::http1 ? "--protocol h1" : "defaults.protocol: h1"));
  }
  p.protocol = ProtocolChoice::http2;
  if (call == nullptr) return {};
  if (!p.retry.send_deadline.empty()) {
    return usage_error(
        fmt::format("--send-deadline: {} is a gRPC call (scenario \"{}\"), whose deadline goes out "
                    "as grpc-timeout, set by openloop",
                    call->where, s.name));
  }
  p.retry.send_deadline = "grpc-timeout";
  return {};
}

}  // namespace

std::vector<RequestSpec> requests_of(const workload::WorkloadPlan& w, const workload::ScenarioPlan& s) {
  std::vector<RequestSpec> out;
  for (const auto& t : w.requests) {
    RequestSpec r;
    r.name = t.name();
    r.method = t.method();
    if (const http::ConstantRequest* constant = t.constant()) {
      r.request = *constant;
    } else {
      r.templ = &t;
    }
    r.weight = 0;  // only the scenario's mix is picked from
    r.success_min = t.success().min;
    r.success_max = t.success().max;
    out.push_back(std::move(r));
  }
  for (const auto& e : s.mix.entries()) out[e.request].weight = e.weight;
  if (w.grpc) {
    // A call is judged by its set of gRPC statuses; the range (its lowest to its highest code) is what a
    // reader that knows no set sees, as for a call from flags.
    for (const workload::GrpcCallText& c : w.grpc->calls) {
      RequestSpec& r = out[c.request];
      r.grpc_success = c.success;
      r.success_min = std::countr_zero(c.success);
      r.success_max = 31 - std::countl_zero(c.success);
    }
  }
  return out;
}

std::uint64_t default_max_sessions(const RunPlan& plan, unsigned threads, std::uint64_t fd_limit) {
  Nanos life{0};
  for (const Step& step : plan.steps) life += plan.timeout + step.think_after.mean();
  if (plan.steps.empty()) life = plan.timeout + plan.think.mean();  // a session of one request from the mix
  return default_max_connections(plan.profile.max_rate(), life, threads, fd_limit);
}

Result<std::vector<RunPlan>> plans_from_workload(std::shared_ptr<const workload::WorkloadPlan> workload,
                                                 const RunSettings& settings) {
  const workload::WorkloadPlan& w = *workload;
  const auto count = static_cast<unsigned>(w.scenarios.size());
  const unsigned threads = std::max(1U, settings.threads / std::max(1U, count));
  std::vector<RunPlan> plans;
  for (std::size_t i = 0; i < w.scenarios.size(); ++i) {
    const workload::ScenarioPlan& s = w.scenarios[i];
    RunPlan p;
    p.url_text = w.target_text;
    p.url = w.target;
    p.requests = requests_of(w, s);
    p.insecure = settings.insecure;
    p.ca_file = settings.ca_file;
    p.model = model_of(s.model);
    p.profile = s.profile;
    p.arrival = s.arrival;
    p.seed = s.seed;
    p.users = s.vus;
    p.think = s.think;
    p.pacing = s.pacing;
    p.max_rate = s.max_rate;
    for (const auto& step : s.steps) p.steps.push_back(Step{step.request, step.think});
    p.timeout = w.defaults.timeout;
    p.success_min = w.defaults.success.min;
    p.success_max = w.defaults.success.max;
    p.retry = OPENLOOP_TRY(parse_retry_policy(settings.retry, p.timeout));
    p.on_saturation = settings.on_saturation;
    p.spin_below = settings.spin_below;
    p.spin_budget = settings.spin_budget;
    p.coalesce = settings.coalesce;
    p.accept_bunching = settings.accept_bunching;
    // --protocol wins over the file's defaults.protocol; auto on both: auto.
    p.protocol = settings.protocol;
    if (p.protocol == ProtocolChoice::automatic && !w.defaults.protocol.empty())
      p.protocol = parse_protocol_choice(w.defaults.protocol).value_or(ProtocolChoice::automatic);
    // --max-streams, --h2-window and --connections given on the command line win over the file's defaults.
    if (settings.max_streams) {
      p.max_streams = *settings.max_streams;
    } else if (w.defaults.max_streams > 0) {
      p.max_streams = w.defaults.max_streams;
    }
    if (settings.h2_window) {
      p.h2_window = *settings.h2_window;
    } else if (w.defaults.h2_window > 0) {
      p.h2_window = w.defaults.h2_window;
    }
    OPENLOOP_TRY_VOID(speak_grpc(w, s, settings, p));
    const std::uint64_t connections = settings.connections > 0 ? settings.connections : w.defaults.connections;
    if (p.coalesce.count() != 0 && p.model != Model::open) {
      return usage_error(
          fmt::format("--coalesce: scenario \"{}\" is {}: it sends on responses, which it must "
                      "not sleep through; coalescing applies to open-model scenarios only",
                      s.name, to_string(p.model)));
    }
    if (s.replay) {
      // The trace gives each arrival's request (one spec names them all) and the file's default headers are
      // added to every record, as -H is to a replay from flags.
      p.replay = s.replay;
      RequestSpec replayed;
      replayed.name = "replay";
      replayed.success_min = w.defaults.success.min;
      replayed.success_max = w.defaults.success.max;
      p.requests.clear();
      p.requests.push_back(std::move(replayed));
      p.headers = w.defaults.headers;
    }
    p.workload = workload;
    p.scenario_index = i;
    // What the flow steps' captures and checks read (and, with data rows, the FlowRunner that deals them).
    p.capture = flow_response_capture(s, workload::find_session_data(w.variables, s.name).has_value());
    p.scenario = s.name;
    p.start_offset = s.start;
    if (settings.warmup >= s.duration) {
      return usage_error(fmt::format("--warmup: {} leaves nothing to measure in scenario \"{}\" lasting {}",
                                     format_duration(settings.warmup), s.name, format_duration(s.duration)));
    }
    p.warmup = settings.warmup;
    p.duration = s.duration - settings.warmup;
    if (p.user_driven()) {
      p.threads = static_cast<unsigned>(std::clamp<std::uint64_t>(s.vus, 1, threads));
      p.max_connections = s.vus;
    } else {
      p.threads = threads;
      const std::uint64_t fd_share = settings.fd_limit / std::max(1U, count);
      const double peak = s.profile.max_rate() * static_cast<double>(s.requests_per_iteration());
      p.max_connections = settings.max_connections > 0
                              ? settings.max_connections
                              : default_max_connections(peak, p.timeout, threads, fd_share);
      size_connections(p, connections);
      if (p.model == Model::sessions) {
        p.max_sessions = s.max_sessions > 0               ? s.max_sessions
                         : settings.max_connections > 0 ? settings.max_connections
                                                        : default_max_sessions(p, threads, fd_share);
        p.max_connections = p.max_sessions;
      }
      p.threads = static_cast<unsigned>(std::clamp<std::uint64_t>(p.max_connections, 1, threads));
    }
    plans.push_back(std::move(p));
  }
  unsigned base = 0;
  for (auto& p : plans) {
    p.worker_base = base;
    base += p.threads;
  }
  for (auto& p : plans) p.workers_total = base;
  return plans;
}

}  // namespace openloop::engine
