// Plan description and derived defaults.
#include "engine/run_plan.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "core/redact.h"
#include "core/units.h"
#include "workload/grpc_call.h"
#include "workload/request_template.h"

namespace openloop::engine {

nlohmann::json RunPlan::describe() const {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : profile.stages()) {
    stages.push_back({{"duration_s", to_seconds(s.duration)}, {"target_rps", s.target_rate}});
  }
  nlohmann::json headers_json = nlohmann::json::array();
  // Credentials are sent, never written down: every output shows them redacted (core/redact.h).
  for (const auto& h : headers) headers_json.push_back(redact_header_line(h.name + ": " + h.value));
  nlohmann::json j = {
      {"target", redact.url(url_text)},
      {"method", method},
      {"headers", headers_json},
      {"body_bytes", body.size()},
      {"model", to_string(model)},
      {"threads", threads},
      {"max_connections", max_connections},
      {"on_saturation", on_saturation == OnSaturation::drop ? "drop" : "queue"},
      {"spin_below_us", spin_below ? nlohmann::json(to_seconds(*spin_below) * 1e6) : nlohmann::json("auto")},
      {"timeout_s", to_seconds(timeout)},
      {"success_statuses", std::to_string(success_min) + "-" + std::to_string(success_max)},
      {"warmup_s", to_seconds(warmup)},
      {"duration_s", to_seconds(duration)},
      {"interval_s", to_seconds(interval)},
      {"insecure", insecure},
      {"protocol", std::string(to_string(protocol))}};
  if (workload::is_grpc_url(url_text) && grpc_success != 0) {
    // A gRPC call (docs/grpc.md): its method (the request's name), and its success statuses by name.
    std::string success;
    for (int code = 0; code < static_cast<int>(k_grpc_status_codes); ++code)
      if ((grpc_success >> code & 1U) != 0)
        success.append(success.empty() ? "" : ",").append(grpc_status_name(code));
    j["success_statuses"] = success;
    // The call is the requests' name, without the message's number of a --data array ("pkg.Svc/Method [1]").
    const std::string call = requests.empty() ? std::string() : requests.front().name;
    j["grpc"] = {{"call", call.substr(0, call.find(" ["))}};
  } else {
    // A plan file's calls, each request's method by its name (a scenario may mix them with HTTP requests).
    nlohmann::json calls = nlohmann::json::object();
    for (const RequestSpec& r : requests) {
      if (r.grpc_success == 0) continue;
      const std::string_view path = r.templ != nullptr ? r.templ->target_text() : r.request.parts().target;
      calls[r.name] = std::string(path.substr(path.rfind('/', path.rfind('/') - 1) + 1));
    }
    if (!calls.empty()) j["grpc"] = {{"calls", calls}};
  }
  if (may_speak_http2(*this)) {
    j["max_streams"] = max_streams;
    j["h2_window"] = h2_window;
    // How many connections HTTP/2 got, and why: --connections, or as the streams in flight needed (the
    // peer's limit, known once its SETTINGS came), up to max_connections.
    if (model == Model::open) j["connections"] = max_in_flight > 0 ? "fixed (--connections)" : "as needed";
  }
  // Only a plan whose concurrency cap differs from its connection count says so (none today).
  if (max_in_flight > 0 && max_in_flight != max_connections) j["max_in_flight"] = max_in_flight;
  // coalesce_us stays a number (readers of older files expect one): auto is said by "coalesce" instead.
  if (coalesce == k_coalesce_auto) {
    j["coalesce"] = "auto";
  } else {
    j["coalesce_us"] = to_seconds(coalesce) * 1e6;
  }
  if (deadline.count() > 0) j["deadline_s"] = to_seconds(deadline);
  if (max_lateness.count() > 0) j["max_lateness_ms"] = to_seconds(max_lateness) * 1e3;
  if (accept_bunching) j["accept_bunching"] = true;
  if (!server_timing_metric.empty()) j["server_timing_metric"] = server_timing_metric;
  if (model == Model::open || model == Model::sessions) {
    j["arrival"] = replay ? "replay" : arrival == workload::ArrivalKind::constant ? "constant" : "poisson";
    j["seed"] = seed;
    // How threads (and shards) split a Poisson schedule decides its points, so the plan says it.
    if (arrival == workload::ArrivalKind::poisson)
      j["poisson_split"] = std::string(workload::to_string(shard.poisson_split));
    j["stages"] = stages;
    // A constant rate (--rate R) says so, so readers need not infer it from a one-stage list.
    const auto& st = profile.stages();
    if (st.size() == 1 && profile.start_rate() == st.front().target_rate)
      j["rate_rps"] = st.front().target_rate;
  } else {
    j["users"] = users;
  }
  j["retry"] = retry.describe();
  if (!think.is_zero()) j["think"] = think.to_string();
  j["think_mean_s"] = to_seconds(think.mean());
  if (model == Model::pacing) {
    j["pacing_s"] = to_seconds(pacing);
    j["max_rate"] = max_rate;
  }
  if (model == Model::sessions) j["max_sessions"] = max_sessions;
  nlohmann::json reqs = nlohmann::json::array();
  for (const auto& r : requests)
    reqs.push_back({{"name", r.name}, {"method", r.method}, {"weight", r.weight}});
  j["requests"] = reqs;
  if (replay) {
    const workload::ReplayPlan& r = *replay;
    const workload::ReplayOptions& o = r.request.options;
    nlohmann::json rj = {{"file", r.request.input.path},
                         {"format", std::string(workload::to_string(r.request.input.format))},
                         {"records", r.counts.records},
                         {"span_s", to_seconds(r.span)},
                         {"speed", o.speed},
                         {"loop", r.request.loop},
                         {"reorder_window_s", to_seconds(o.window)},
                         {"late", r.counts.late},
                         {"skipped_lines", r.skipped},
                         {"empty_request_lines", r.no_requests},
                         {"gaps_compressed", r.counts.gaps_compressed},
                         {"compressed_s", to_seconds(r.counts.compressed)},
                         {"outside_window", r.counts.outside},
                         {"seconds_spread", r.spreads_seconds},
                         {"credentials_dropped", r.credentials_dropped},
                         {"params_redacted", r.params_redacted},
                         {"kept_headers", r.request.keep_headers},
                         {"redacted_params", r.request.redact_params}};
    if (!r.request.input.log_format.empty()) rj["log_format"] = r.request.input.log_format;
    if (o.max_gap.count() > 0) rj["max_gap_s"] = to_seconds(o.max_gap);
    if (o.from) rj["from_s"] = to_seconds(*o.from);
    if (o.to) rj["to_s"] = to_seconds(*o.to);
    if (r.request.loop) rj["loop_period_s"] = to_seconds(r.loop_period());
    if (o.session_key.any()) {
      rj["session_key"] = o.session_key.text();  // which value, never a value
      rj["records_with_session"] = r.counts.keyed;
    }
    j["replay"] = std::move(rj);
  }
  if (round_robin) j["request_order"] = "round-robin";
  if (!steps.empty()) {
    nlohmann::json st = nlohmann::json::array();
    for (const auto& s : steps)
      st.push_back({{"request", requests[s.request].name}, {"think_after", s.think_after.to_string()}});
    j["steps"] = st;
  }
  if (shard.sharded()) {
    j["shard"] = {{"index", shard.index},
                  {"count", shard.count},
                  {"weights", shard.weights},
                  {"share", shard.share()},
                  {"poisson_split", std::string(workload::to_string(shard.poisson_split))}};
  }
  return j;
}

namespace {
// 99999999999 as "99999999999", 2.5 as "2.5": rates as a user would type them.
std::string rate_text(double rate) {
  return rate == std::floor(rate) && rate < 1e18 ? fmt::format("{:.0f}/s", rate)
                                                 : fmt::format("{:.6g}/s", rate);
}
}  // namespace

Result<void> check_feasible(const RunPlan& plan, Nanos clock_resolution) {
  if (plan.model != Model::open && plan.model != Model::sessions) return {};  // users send one at a time
  const double peak = plan.profile.max_rate() * plan.shard.share();           // this shard's part of it
  const unsigned threads = std::max(1U, plan.threads);
  const double by_clock = 1e9 / static_cast<double>(std::max<std::int64_t>(1, clock_resolution.count()));
  const double per_thread = std::min(k_max_rate_per_thread, by_clock);
  if (!(peak / threads > per_thread)) return {};
  const std::string where = !plan.scenario.empty() ? fmt::format("scenario '{}': its rate", plan.scenario)
                            : plan.model == Model::sessions
                                ? std::string("--session-rate")
                                : std::string("--rate (or --stages, or a ramp's or probe's steps)");
  return usage_error(
      fmt::format("{} peaks at {}: more than this machine can generate, at most {} per worker thread ({} "
                  "thread(s): {} in "
                  "all){}; lower the rate or raise --threads",
                  where, rate_text(peak), rate_text(per_thread), threads, rate_text(per_thread * threads),
                  by_clock < k_max_rate_per_thread
                      ? fmt::format(", as the steady clock's resolution is {} ns", clock_resolution.count())
                      : std::string()));
}

bool may_speak_http2(const RunPlan& plan) {
  return plan.protocol == ProtocolChoice::http2 || (plan.protocol == ProtocolChoice::automatic && plan.url.tls);
}

void size_connections(RunPlan& plan, std::uint64_t connections) {
  if (plan.model != Model::open) return;
  const std::uint64_t cap = plan.max_connections;
  const std::uint64_t per_connection = may_speak_http2(plan) ? std::max<std::uint32_t>(1, plan.max_streams) : 1;
  if (connections > 0) {
    plan.max_connections = connections;
    plan.max_in_flight = std::min(cap, connections * per_connection);
  }
  // Else (HTTP/2 by prior knowledge too) one connection per slot of the cap, opened as needed: the pool fills
  // a connection's streams before it opens another, so the connections follow the peer's stream limit,
  // unknown until its SETTINGS (a server granting 4 streams gets a connection per 4 requests in flight).
  if (plan.max_in_flight == plan.max_connections) plan.max_in_flight = 0;  // one slot per connection
}

std::uint64_t default_max_connections(double peak_rate, Nanos timeout, unsigned threads,
                                      std::uint64_t fd_limit) {
  const double outstanding = peak_rate * to_seconds(timeout) * 1.1 + 16.0 * threads;
  const std::uint64_t reserve = 64;
  const std::uint64_t cap = fd_limit > reserve * 2 ? fd_limit - reserve : fd_limit / 2;
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(outstanding)), 2ULL * threads, cap);
}

}  // namespace openloop::engine
