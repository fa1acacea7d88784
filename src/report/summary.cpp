// Text summary. Everything is derived from the results (histograms and counters), nothing re-measured.
#include "report/summary.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "core/units.h"
#include "report/observed_summary.h"
#include "report/text_format.h"
#include "results/flow_steps.h"
#include "results/judging/generator_tail.h"
#include "results/judging/model_checks.h"
#include "results/judging/timer_floor.h"

namespace openloop::report {
namespace {

// A rate per second with one decimal, or three below 10/s, so a slow plan (500/h) reads the same in the model
// line and the rates line.
std::string rate_number(double per_second) {
  return per_second >= 10 || per_second == 0 ? fmt::format("{:.1f}", per_second)
                                             : fmt::format("{:.3f}", per_second);
}

// The planned rate as the model line states it: per second, and below 1/s also per minute or per hour,
// whichever is a whole number (as the user most likely typed it: 30/m, 500/h).
std::string planned_rate(double per_second) {
  if (per_second >= 1 || per_second <= 0) return format_rate(per_second);
  const double per_minute = per_second * 60, per_hour = per_second * 3600;
  const auto whole = [](double v) { return std::abs(v - std::round(v)) < 1e-6 * std::max(1.0, v); };
  const bool minutes = per_minute >= 1 && (whole(per_minute) || !whole(per_hour));
  return minutes ? fmt::format("{}/s ({:.4g}/m)", rate_number(per_second), per_minute)
                 : fmt::format("{}/s ({:.4g}/h)", rate_number(per_second), per_hour);
}


void latency_row(std::string& out, const char* name, const results::LatencySummary& s) {
  if (s.count == 0) {
    fmt::format_to(std::back_inserter(out), "  {:<15} (no samples)\n", name);
    return;
  }
  fmt::format_to(std::back_inserter(out), "  {:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", name,
                 format_latency(s.p50), format_latency(s.p90), format_latency(s.p99), format_latency(s.p999),
                 format_latency(s.p9999), format_latency(s.max),
                 format_latency(static_cast<std::int64_t>(s.mean)));
}

// The SLO table (slo | measured | threshold | result), right under the verdict it is subordinate to.
void slo_block(std::string& out, const results::RunResults& r) {
  if (!r.aborted_by_slo.empty()) {
    fmt::format_to(
        std::back_inserter(out),
        "stopped early (--abort-on-slo): {} was certain to fail; results cover the part that ran\n",
        r.aborted_by_slo);
  }
  if (r.slos.empty()) return;
  std::size_t failed = 0, width = 24;
  for (const auto& s : r.slos) {
    failed += s.evaluated && s.met ? 0 : 1;
    width = std::max(width, s.slo.text.size() + (s.slo.is_default ? 12 : 0));
  }
  const bool by_default = r.slos.size() == 1 && r.slos.front().slo.is_default;
  fmt::format_to(
      std::back_inserter(out), "SLOs: {}{}\n",
      by_default    ? fmt::format("default SLO {} (no --slo given; --slo none measures without judging)",
                               failed == 0 ? "met" : "not met")
      : failed == 0 ? fmt::format("all {} met", r.slos.size())
                    : fmt::format("{} of {} not met", failed, r.slos.size()),
      r.verdict.valid ? "" : " (the run is INVALID: these numbers describe the rig, not the target)");
  fmt::format_to(std::back_inserter(out), "  {:<{}} {:>12} {:>13}   {}\n", "slo", width, "measured",
                 "threshold", "result");
  for (const auto& s : r.slos) {
    const std::string threshold = fmt::format("{} {}", results::op_text(s.slo.op), s.threshold_text);
    fmt::format_to(std::back_inserter(out), "  {:<{}} {:>12} {:>13}   {}\n",
                   s.slo.is_default ? "default SLO " + s.slo.text : s.slo.text, width,
                   s.evaluated ? s.measured_text : "-", threshold,
                   !s.evaluated ? "FAILED (" + s.measured_text + ")"
                   : s.met      ? "met"
                                : "FAILED");
    if (const std::string note = results::slo_lateness_note(s, r); !note.empty())
      fmt::format_to(std::back_inserter(out), "    {}\n", note);
  }
}

void verdict_block(std::string& out, const results::RunResults& r) {
  const bool closed = r.info.model == results::Model::closed;
  fmt::format_to(std::back_inserter(out), "verdict: {}{}\n",
                 r.verdict.valid    ? "VALID (the generator applied the planned load; the target's outcome is below)"
                 : r.unreachable() ? "INVALID (nothing was measured: the target was never reached)"
                                   : "INVALID (the generator did not apply the planned load)",
                 r.interrupted ? " (interrupted: results cover the part that ran)" : "");
  for (const auto& reason : r.verdict.reasons) fmt::format_to(std::back_inserter(out), "  - {}\n", reason);
  if (const std::string target = target_headline(r); !target.empty()) out += target + "\n";
  if (const double bound = r.info.plan.is_object() ? r.info.plan.value("max_lateness_ms", 0.0) : 0.0;
      bound > 0) {
    fmt::format_to(std::back_inserter(out),
                   "  send-lateness bound relaxed to {} by --max-lateness (default 1ms): the generator was "
                   "allowed to send that late\n",
                   format_duration(from_seconds(bound / 1e3)));
  }
  slo_block(out, r);
  if (closed) {
    fmt::format_to(
        std::back_inserter(out),
        "model: CLOSED ({} users, each waits for its response before sending again). Latency here is "
        "service time: a closed loop slows down with the server and never sends the requests that would "
        "have waited, so stalls and queueing are hidden (coordinated omission).\n",
        r.info.users);
  } else if (r.info.model == results::Model::pacing) {
    fmt::format_to(
        std::back_inserter(out),
        "model: PACING ({} users, each starting an iteration at most every pacing interval). It reads "
        "like an open model while the service keeps up, and becomes a closed loop (latency = service "
        "time, load falls) when it does not: check achieved against configured below.\n",
        r.info.users);
  } else if (r.info.model == results::Model::sessions) {
    fmt::format_to(
        std::back_inserter(out),
        "model: PARTLY OPEN (sessions arrive, {} at {} planned; each runs its steps in order, waiting for "
        "each response); latency of each step is measured from the step's intended time.\n",
        r.info.arrival, planned_rate(r.info.offered_rps));
  } else if (r.info.model == results::Model::mixed) {
    fmt::format_to(std::back_inserter(out),
                   "model: MIXED (scenarios of different workload models, run together and combined here; "
                   "each scenario's own summary names its model and what that model hides).\n");
  } else {
    fmt::format_to(
        std::back_inserter(out),
        "model: OPEN ({} arrivals at {} planned); latency is measured from each request's intended "
        "time.\n",
        r.info.arrival, planned_rate(r.info.offered_rps));
  }
}

// Per request name, when the run sent several (requests it never sent, e.g. another scenario's, are left
// out).
void by_request_block(std::string& out, const results::RunResults& r) {
  const auto sent = std::count_if(r.by_request.begin(), r.by_request.end(),
                                  [](const results::RequestTotals& t) { return t.counters.intended > 0; });
  if (sent < 2) return;
  fmt::format_to(std::back_inserter(out), "\n  {:<24} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "request",
                 "intended", "ok", "errors", "p50", "p99", "max");
  for (std::size_t i = 0; i < r.by_request.size(); ++i) {
    const auto& t = r.by_request[i];
    if (t.counters.intended == 0) continue;
    const std::string& name = i < r.info.request_names.size() ? r.info.request_names[i] : t.name;
    const auto rt = results::LatencySummary::of(t.response_time);
    fmt::format_to(std::back_inserter(out), "  {:<24} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", name,
                   t.counters.intended, t.counters.ok, t.counters.errors_total() + t.counters.timeouts,
                   format_latency(rt.p50), format_latency(rt.p99), format_latency(rt.max));
  }
}

// Attempts behind the logical requests, when the plan retries (or a file shows retries).
void retries_block(std::string& out, const results::RunResults& r) {
  const auto& c = r.totals;
  const nlohmann::json& plan = r.info.plan;
  const bool enabled = plan.is_object() && plan.contains("retry") && plan["retry"].is_object() &&
                       plan["retry"].value("attempts", 1) > 1;
  if (c.resent > 0) {
    fmt::format_to(std::back_inserter(out),
                   "resent     {} (never processed by the server: HTTP/2 REFUSED_STREAM or above a GOAWAY's "
                   "last stream; sent again outside the retry budget)\n",
                   c.resent);
  }
  if (!enabled && c.retries == 0) return;
  fmt::format_to(
      std::back_inserter(out),
      "retries    attempts {}   retries {}   amplification {:.3f} (attempts / sent)   budget denied {}\n",
      c.attempts, c.retries, c.amplification(), c.retry_budget_denied);
  const auto at = results::LatencySummary::of(r.attempt_time);
  if (at.count > 0) {
    fmt::format_to(std::back_inserter(out),
                   "           attempt time p50 {}   p99 {}   max {} (each attempt: its start to "
                   "its outcome; response time spans all attempts)\n",
                   format_latency(at.p50), format_latency(at.p99), format_latency(at.max));
  }
}

// What completed − ok holds: statuses outside --success; with --deadline shorter than --timeout, successes
// after the deadline; with flow steps, responses whose capture or check failed.
std::string not_ok_label(const results::RunResults& r) {
  std::string label = "bad status";
  if (r.info.plan.is_object() && r.info.plan.value("deadline_s", 0.0) > 0) label += " or after the deadline";
  if (r.flows.captures_failed + r.flows.checks_failed > 0) label += " or a failed capture or check";
  return label;
}

// A flow's steps (docs/flows.md), one line each: the step's request's counts and response times from the
// step's due time, and its failed captures and checks and the sessions it stopped.
void flow_steps_table(std::string& out, const std::vector<results::FlowStep>& steps) {
  fmt::format_to(
      std::back_inserter(out), "\n  {:<4} {:<20} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n",
      "step", "request", "intended", "ok", "not ok", "errors", "captures", "checks", "stopped", "p50", "p99");
  bool shared = false;
  for (const results::FlowStep& s : steps) {
    const results::Counters c = s.counters != nullptr ? *s.counters : results::Counters{};
    const auto rt = s.response_time != nullptr ? results::LatencySummary::of(*s.response_time)
                                               : results::LatencySummary{};
    shared |= s.shared;
    fmt::format_to(std::back_inserter(out),
                   "  {:<4} {:<20} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", s.step,
                   s.request + (s.shared ? " *" : ""), c.intended, c.ok, c.completed - c.ok,
                   c.errors_total() + c.timeouts, s.failures.captures_failed, s.failures.checks_failed,
                   s.failures.stopped, rt.count > 0 ? format_latency(rt.p50) : "-",
                   rt.count > 0 ? format_latency(rt.p99) : "-");
  }
  out +=
      "  (not ok: a status outside the success range or a failed capture or check; errors: errors and "
      "timeouts; latency from each step's due time)\n";
  if (shared) out += "  * a request several steps send: those steps show its numbers together\n";
}

// Flow steps' failed captures and checks (docs/flows.md): the totals when any failed, then each step (a line
// per step in a table when the run's plan names its steps, else the failing steps' counts).
void flow_steps_block(std::string& out, const results::RunResults& r) {
  const auto& f = r.flows;
  const std::vector<results::FlowStep> steps = results::flow_steps(r);
  if (!steps.empty()) flow_steps_table(out, steps);
  if (f.captures_failed == 0 && f.checks_failed == 0 && f.stopped == 0) return;
  const bool sessions = r.info.model == results::Model::sessions;
  fmt::format_to(std::back_inserter(out), "flow checks  captures failed {}   checks failed {}   {} stopped {}\n",
                 f.captures_failed, f.checks_failed, sessions ? "sessions" : "iterations", f.stopped);
  if (f.captures_failed + f.checks_failed > 0) {
    out += "             a response whose capture or check failed is not ok: it counts against goodput and its "
           "SLOs\n";
  }
  if (!steps.empty()) return;
  for (std::size_t i = 0; i < f.steps.size(); ++i) {
    if (f.steps[i].empty()) continue;
    fmt::format_to(std::back_inserter(out), "  step {}{}: captures failed {}   checks failed {}   stopped {}\n",
                   i + 1, i + 1 == f.steps.size() ? " and later" : "", f.steps[i].captures_failed,
                   f.steps[i].checks_failed, f.steps[i].stopped);
  }
}

// What the workload model adds: Little's law (closed), configured vs achieved pace (pacing), sessions.
void model_block(std::string& out, const results::RunResults& r) {
  const auto& f = r.flows;
  if (r.info.model == results::Model::closed) {
    if (const auto l = results::littles_law(r, r.info.plan.value("think_mean_s", 0.0))) {
      fmt::format_to(
          std::back_inserter(out),
          "\nLittle's law  N = X·(R + Z): {:.0f} users; X {:.1f}/s × (R {} + Z {}) = {:.2f} ({:.1f}% off)\n",
          l->users, l->throughput_rps, format_duration(from_seconds(l->response_s)),
          format_duration(from_seconds(l->think_s)), l->predicted_users, 100 * l->error_fraction);
    }
  } else if (r.info.model == results::Model::pacing) {
    const double achieved = r.measured_s > 0 ? static_cast<double>(f.iterations) / r.measured_s : 0;
    fmt::format_to(std::back_inserter(out), "\npacing  configured {:.1f} iterations/s   achieved {:.1f}/s\n",
                   r.info.configured_iterations_per_s, achieved);
    const auto short_s = results::pacing_shortfall(r);
    if (!short_s.empty()) {
      std::string list;
      for (double s : short_s) list += fmt::format("{}{:g}s", list.empty() ? "" : ", ", s);
      fmt::format_to(std::back_inserter(out),
                     "  The load applied was not the load configured: achieved fell short in {} interval(s) "
                     "starting at {} (users waited for slow responses, as in a closed loop).\n",
                     short_s.size(), list);
    }
  } else if (r.info.model == results::Model::sessions) {
    const auto st = results::LatencySummary::of(r.session_time);
    fmt::format_to(
        std::back_inserter(out),
        "\nsessions  intended {}   completed {}   failed {}   dropped {}   unfinished {}   session time p50 "
        "{} p99 {}\n",
        f.sessions_intended, f.sessions_completed, f.sessions_failed, f.sessions_dropped,
        f.sessions_unfinished, format_latency(st.p50), format_latency(st.p99));
  }
  flow_steps_block(out, r);
}

// Per-phase timings (curl's and k6's): one line for attempts on new connections, one for reused ones, p50 /
// p99 each (every attempt, for the phases it reached: results/recording/phase_stats.h); DNS once (the run resolves the
// name once, before it starts).
void phases_block(std::string& out, const results::RunResults& r) {
  if (r.phases.empty() && r.dns_ns < 0) return;
  fmt::format_to(std::back_inserter(out), "phases (p50 / p99){}\n",
                 r.dns_ns >= 0
                     ? fmt::format("   dns {} (resolved once, before the run)", format_latency(r.dns_ns))
                     : "");
  const char* labels[] = {"connect", "tls", "first byte", "body"};
  std::int64_t first_attempts = 0, all_attempts = 0;
  for (const bool fresh : {true, false}) {
    // Attempts the line covers: a failed or timed-out attempt counts in the phases it reached only, so the
    // most-counted phase (connect on a new connection, else the first byte) is the number of attempts.
    std::int64_t attempts = 0;
    for (std::size_t i = 0; i < results::k_phases; ++i)
      attempts = std::max(attempts, r.phases.at(fresh, static_cast<results::Phase>(i)).total_count());
    if (fresh) first_attempts = attempts;
    all_attempts += attempts;
    if (attempts == 0) continue;
    std::string line = fmt::format(
        "  {:<34}",
        fmt::format("{} ({} attempts)", fresh ? "new connection" : "reused connection", attempts));
    for (std::size_t i = 0; i < results::k_phases; ++i) {
      const auto s = results::LatencySummary::of(r.phases.at(fresh, static_cast<results::Phase>(i)));
      if (s.count == 0) continue;
      line += fmt::format("   {} {} / {}", labels[i], format_latency(s.p50), format_latency(s.p99));
    }
    out += line + "\n";
  }
  // The generator line counts connections, these lines attempts: say why the two differ, so "connections
  // opened 4" beside "new connection (3 attempts)" is not read as a miscount.
  const auto opened = static_cast<std::int64_t>(r.totals.connections_opened + r.warmup.connections_opened);
  if (all_attempts > 0 && opened > first_attempts) {
    fmt::format_to(std::back_inserter(out),
                   "  ({} of the {} connections opened carried no measured request: opened ahead of the "
                   "first arrival, used only in the warm-up, or never connected)\n",
                   opened - first_attempts, opened);
  }
}

// Server-Timing: what the server said it spent, and the rest of the response time (client, network, queueing
// before the server's timer), p50 / p99 / p99.9; with the headers set aside and the negatives clamped.
void server_timing_block(std::string& out, const results::RunResults& r) {
  const results::ServerTimingStats& st = r.server_timing;
  if (st.empty()) return;
  const auto metric =
      r.info.plan.is_object() ? r.info.plan.value("server_timing_metric", std::string()) : std::string();
  const std::string which = metric.empty() ? "sum of every metric's dur" : "metric \"" + metric + "\"";
  if (st.count() > 0) {
    const auto server = results::LatencySummary::of(st.server_time);
    const auto outside = results::LatencySummary::of(st.outside_server);
    fmt::format_to(
        std::back_inserter(out),
        "server-timing ({} responses; {})\n  server-reported   p50 {}   p99 {}   p99.9 {}\n  outside "
        "server    p50 {}   p99 {}   p99.9 {}   (response time − server time)\n",
        st.count(), which, format_latency(server.p50), format_latency(server.p99),
        format_latency(server.p999), format_latency(outside.p50), format_latency(outside.p99),
        format_latency(outside.p999));
  } else {
    fmt::format_to(std::back_inserter(out), "server-timing  no usable duration ({})\n", which);
  }
  if (st.negative > 0) {
    fmt::format_to(std::back_inserter(out),
                   "  {} responses where the server reported more than the whole response took: counted as 0 "
                   "outside the server\n",
                   st.negative);
  }
  if (st.malformed > 0 || st.no_duration > 0) {
    fmt::format_to(std::back_inserter(out),
                   "  set aside: {} unreadable Server-Timing headers, {} without the duration sought\n",
                   st.malformed, st.no_duration);
  }
}

// --log-requests: how many lines were written, and how many records the writer could not keep up with.
void request_log_line(std::string& out, const results::RunResults& r) {
  if (!r.logged) return;
  fmt::format_to(
      std::back_inserter(out), "request log  {} lines written   {} dropped{}\n", r.log_written, r.log_dropped,
      r.log_dropped > 0 ? " (the writer fell behind or failed; those requests are in the counts above, "
                          "not in the log)"
                        : "");
}

// How late this host wakes a sleeping thread (measured before the run, and during it), and what --spin-below auto did about it.
std::string timer_floor_figures(const results::RunInfo& info) {
  const results::TimerFloor f = results::timer_floor_of(info);
  if (f.samples == 0) return {};
  std::string out = fmt::format("   timer floor p50 {} p99 {}{}", format_duration(from_seconds(f.p50_us / 1e6)),
                                format_duration(from_seconds(f.p99_us / 1e6)),
                                f.given ? " (given by OPENLOOP_TIMER_FLOOR_US)" : "");
  if (f.run_samples > 0)
    out += fmt::format(" (during the run p99 {})", format_duration(from_seconds(f.run_p99_us / 1e6)));
  if (f.spin_lead_us > 0) {
    std::string budget;
    if (f.spin_budget > 0) {
      budget = fmt::format(", within a budget of {:.0f}% of a core, spent {:.1f}%", 100 * f.spin_budget,
                           100 * f.spin_spent);
      if (f.spin_budget_low < f.spin_budget)
        budget += fmt::format(", down to {:.0f}% while the workers waited for a CPU", 100 * f.spin_budget_low);
    }
    out += fmt::format(" (so each wait ended {} early and spun{})",
                       format_duration(from_seconds(f.spin_lead_us / 1e6)), budget);
  }
  return out;
}

// The share of the generator's CPU spent polling through short waits, and how short: those under the sleep's
// own cost, or under --spin-below auto's lead when it spun ahead of a late-waking host. Spinning is timed by
// the clock, so on a host that preempts the spinning thread it can exceed the CPU the thread got: capped
// there.
std::string spin_note(const results::GeneratorStats& g, const results::RunInfo& info) {
  const double below_us = std::max(g.spin_below_us, results::timer_floor_of(info).spin_lead_us);
  return fmt::format(" (of which {:.2f}s polling through waits under {})",
                     std::min(g.spin_seconds, g.cpu_seconds), format_duration(from_seconds(below_us / 1e6)));
}

// What the machine took from the generator: the hypervisor's steal and the workers' wait for a CPU, where known.
std::string contention_figures(const results::GeneratorStats& g) {
  std::string out;
  if (g.steal_share) out += fmt::format("   steal {:.1f}%", 100 * *g.steal_share);
  if (g.run_delay_seconds)
    out += fmt::format("   waited for a CPU {}", format_duration(from_seconds(*g.run_delay_seconds)));
  return out;
}

// The protocol the connections spoke (over TLS, the server's ALPN choice), with each one's count; over
// HTTP/2, why that many (the plan's "connections").
std::string protocol_note(const results::GeneratorStats& g, const nlohmann::json& plan) {
  if (g.connections_h1 + g.connections_h2 == 0) return "";
  if (g.connections_h2 == 0) return fmt::format("   protocol h1 ({} connections)", g.connections_h1);
  const auto rule = plan.find("connections");
  const std::string why = rule == plan.end() || !rule->is_string() ? ""
                          : *rule == "as needed" ? ", opened as the streams in flight needed"
                                                 : ", fixed by --connections";
  if (g.connections_h1 == 0) return fmt::format("   protocol h2 ({} connections{})", g.connections_h2, why);
  return fmt::format("   protocol h1 ({} connections) and h2 ({})", g.connections_h1, g.connections_h2);
}

std::string coalesce_note(const nlohmann::json& plan) {
  if (const auto a = plan.find("coalesce"); a != plan.end() && a->is_string() && *a == "auto")
    return "   wake-ups coalesced: --coalesce auto, a window per interval from the measured service time "
           "(intervals' coalesce_us; responses timed by the kernel)";
  const auto it = plan.find("coalesce_us");
  if (it == plan.end() || !it->is_number() || it->get<double>() <= 0) return {};
  return fmt::format(
      "   wake-ups coalesced: at most one per {:g} µs (sends up to that late; responses timed by "
      "the kernel)",
      it->get<double>());
}

// "77%", "0.4%", "0.02%": enough digits that a small share does not print as 0%.
std::string share(std::uint64_t part, std::uint64_t whole) {
  const double pct = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return pct >= 10 ? fmt::format("{:.0f}%", pct) : fmt::format("{:.2g}%", pct);
}

}  // namespace

std::string target_headline(const results::RunResults& r) {
  const auto& c = r.totals;
  if (c.intended == 0) return {};
  const auto rate = [](double v) {
    return v >= 100 ? fmt::format("{:.0f}/s", v) : fmt::format("{:.3g}/s", v);
  };
  const std::string rates =
      fmt::format("goodput {} of {} offered", rate(r.goodput_rps()), rate(r.offered_rps()));
  if (c.ok == c.intended) return fmt::format("the target: all {} requests ok; {}", c.intended, rates);
  std::string parts;
  const auto part = [&parts](const char* name, std::uint64_t n) {
    if (n != 0) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", name, n);
  };
  part("timeouts", c.timeouts);
  part("errors", c.errors_total());
  part(not_ok_label(r).c_str(), c.bad_status());
  part("dropped", c.dropped);
  part("unfinished", c.unfinished);
  return fmt::format("the target: {} of {} requests timed out or failed ({}); {}",
                     share(c.intended - c.ok, c.intended), c.intended, parts, rates);
}

std::string render_summary(const results::RunResults& r) {
  std::string out;
  const auto& c = r.totals;
  if (r.info.plan.is_object() && r.info.plan.contains("shard")) {
    // A shard's rates, counts and verdict are its own part of the plan; the plan it records is the whole.
    const auto& s = r.info.plan["shard"];
    fmt::format_to(std::back_inserter(out), "shard {}/{} (share {:.4g}%): rates, counts and verdict are this "
                   "shard's part of the plan\n",
                   s.value("index", 0), s.value("count", 1), s.value("share", 1.0) * 100);
  }
  verdict_block(out, r);
  if (const std::string line = results::checks_line(r.checks); !line.empty()) out += line + "\n";
  fmt::format_to(std::back_inserter(out),
                 "target: {}   measured: {:.3g}s   warm-up: {:.3g}s ({} requests, excluded)\n\n",
                 r.info.target, r.measured_s, r.info.warmup_s, r.warmup.intended);
  const double deadline_s = r.info.plan.is_object() ? r.info.plan.value("deadline_s", 0.0) : 0.0;
  fmt::format_to(
      std::back_inserter(out), "rates (per second)   offered {}   sent {}   throughput {}   goodput {}{}\n\n",
      rate_number(r.offered_rps()), rate_number(r.sent_rps()), rate_number(r.throughput_rps()),
      rate_number(r.goodput_rps()),
      deadline_s > 0
          ? fmt::format(" (successes within the {} deadline)", format_duration(from_seconds(deadline_s)))
          : std::string());
  fmt::format_to(std::back_inserter(out), "  {:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "latency",
                 "p50", "p90", "p99", "p99.9", "p99.99", "max", "mean");
  const auto rt = results::LatencySummary::of(r.response_time);
  const auto st = results::LatencySummary::of(r.service_time);
  const auto sl = results::LatencySummary::of(r.send_lateness);
  latency_row(out, r.info.model == results::Model::closed || r.info.model == results::Model::pacing ? "response (=svc)" : "response time",
              rt);
  latency_row(out, "service time", st);
  latency_row(out, "send lateness", sl);
  if (r.info.model == results::Model::open && rt.count > 0 && st.count > 0 && rt.p99 > 2 * st.p99 &&
      rt.p99 - st.p99 > 1'000'000) {
    // Per request, response time − service time is its send lateness: time in openloop before the send,
    // never the server's queue (inside service time). Between the percentiles, the other difference is the
    // requests that never completed: in response time at their timeout, with no service time.
    const std::int64_t gap = rt.p99 - st.p99;
    const std::uint64_t unanswered = c.timeouts + c.errors_total();
    std::string why;
    if (sl.p99 * 2 >= gap) {
      const bool generators =
          std::any_of(r.verdict.reasons.begin(), r.verdict.reasons.end(),
                      [](const std::string& reason) { return reason.starts_with("send lateness"); }) ||
          !results::generator_tail_warning(r).empty();
      why = fmt::format("requests waited in openloop before they were sent (send lateness p99 {}){}",
                        format_latency(sl.p99),
                        generators ? ": the generator's delay, not the target's (the verdict and the warnings "
                                     "say why)"
                                   : ", queued for a free connection or stream under the cap, as users of a "
                                     "client with that many connections would have");
    } else if (unanswered > 0) {
      why = fmt::format("{} requests that timed out or failed count in response time (from their intended time) "
                        "and have no service time",
                        unanswered);
    } else {
      why = fmt::format("the slowest requests waited before they were sent (send lateness p99 {})",
                        format_latency(sl.p99));
    }
    fmt::format_to(std::back_inserter(out),
                   "\n  Response time p99 ({}) is far above service time p99 ({}): {}. A closed-loop tool reports "
                   "only the service time.\n",
                   format_latency(rt.p99), format_latency(st.p99), why);
  }
  fmt::format_to(
      std::back_inserter(out),
      "\noutcomes   intended {}   sent {}   completed {} (ok {} + {} {})   timeouts {}   errors {}   "
      "dropped {}   unfinished {}\n",
      c.intended, c.sent, c.completed, c.ok, not_ok_label(r), c.bad_status(), c.timeouts, c.errors_total(), c.dropped, c.unfinished);
  if (c.slot_waits > 0) {  // queued arrivals (slot_waits ⊆ intended, so intended > 0)
    const auto sw = results::LatencySummary::of(r.slot_wait);
    fmt::format_to(std::back_inserter(out),
                   "slot waits {} ({:.1f}% of intended) queued for a free stream/connection: wait p50 {}   p99 {}   "
                   "max {}\n",
                   c.slot_waits, 100.0 * static_cast<double>(c.slot_waits) / static_cast<double>(c.intended),
                   format_latency(sw.p50), format_latency(sw.p99), format_latency(sw.max));
  }
  retries_block(out, r);
  std::string statuses;
  const char* names[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
  for (std::size_t i = 0; i < c.status_class.size(); ++i) {
    if (c.status_class[i] != 0) statuses += fmt::format("   {} {}", names[i], c.status_class[i]);
  }
  if (!statuses.empty()) {
    const std::string success =
        r.info.plan.is_object() ? r.info.plan.value("success_statuses", std::string()) : std::string();
    if (c.grpc_calls() == 0) {
      fmt::format_to(std::back_inserter(out), "statuses{}   (of completed; ok = a status in --success{}{})\n",
                     statuses, success.empty() ? "" : " ", success);
    } else {
      // gRPC calls (docs/grpc.md): the HTTP status is 200 for every call with a grpc-status; the outcome is
      // the gRPC status, counted by name.
      fmt::format_to(std::back_inserter(out),
                     "statuses{}   (HTTP; a gRPC call's outcome is its gRPC status)\n", statuses);
      std::string grpc;
      for (std::size_t i = 0; i < c.grpc_status.size(); ++i) {
        if (c.grpc_status[i] != 0)
          grpc += fmt::format("   {} {}", grpc_status_name(static_cast<int>(i)), c.grpc_status[i]);
      }
      fmt::format_to(std::back_inserter(out),
                     "gRPC statuses{}   (of completed; ok = a status in --grpc-success{}{})\n", grpc,
                     success.empty() ? "" : " ", success);
      fmt::format_to(std::back_inserter(out), "gRPC response messages {}   {} bytes ({:.1f} per message)\n",
                     c.grpc_messages_in, c.grpc_message_bytes_in,
                     c.grpc_messages_in == 0 ? 0.0
                                             : static_cast<double>(c.grpc_message_bytes_in) /
                                                   static_cast<double>(c.grpc_messages_in));
    }
  }
  if (c.errors_total() != 0) {
    std::string kinds;
    for (std::size_t i = 0; i < results::k_error_kinds; ++i) {
      if (c.errors[i] != 0)
        kinds += fmt::format("   {} {}", results::to_string(static_cast<results::ErrorKind>(i)), c.errors[i]);
    }
    fmt::format_to(std::back_inserter(out), "errors{}\n", kinds);
  }
  for (const auto& [kind, message] : r.error_examples) {
    fmt::format_to(std::back_inserter(out), "  e.g. {}: {}\n", kind, message);
  }
  phases_block(out, r);
  server_timing_block(out, r);
  request_log_line(out, r);
  by_request_block(out, r);
  model_block(out, r);
  out += render_observed(r);
  for (const auto& w : r.warnings) fmt::format_to(std::back_inserter(out), "\nwarning: {}\n", w);
  const auto& g = r.generator;
  fmt::format_to(
      std::back_inserter(out),
      "generator  threads {}   connections opened {} (peak {} open, cap {}){}   CPU {:.2f}s{}   max "
      "RSS {} MiB{}{}\n",
      g.threads, c.connections_opened + r.warmup.connections_opened, g.peak_connections, g.max_connections,
      protocol_note(g, r.info.plan), g.cpu_seconds, g.spin_seconds > 0 ? spin_note(g, r.info) : std::string(),
      g.max_rss_kb / 1024, coalesce_note(r.info.plan), contention_figures(g) + timer_floor_figures(r.info));
  // Last, so the interruption is the line left on screen, not scrolled away above the summary.
  if (r.interrupted) {
    fmt::format_to(
        std::back_inserter(out),
        "\ninterrupted: stopped by a signal after {:.3g}s of the {:.3g}s planned; everything above "
        "covers only the part that ran\n",
        r.measured_s, r.info.duration_s);
  }
  return out;
}

std::string render_run_summary(const results::RunResults& r) {
  if (r.scenarios.size() < 2) return render_summary(r);
  std::string out;
  for (const auto& part : r.scenarios) {
    out += fmt::format("=== scenario {} ===\n", part.name) + render_summary(part.results) + "\n";
  }
  return out + "=== all scenarios together ===\n" + render_summary(r);
}

std::string render_summary(const ReportInput& in) {
  if (in.has_counts) return render_run_summary(in.results);
  const auto& r = in.results;
  std::string out = fmt::format(
      "source: {} (HdrHistogram interval log: latency histograms only; no counts, rates or verdict)\n",
      in.source);
  const double length = r.intervals.empty() ? 0.0 : r.intervals.front().length_s;
  fmt::format_to(std::back_inserter(out), "intervals: {} of {:.3g}s   span: {:.3g}s\n\n", r.intervals.size(),
                 length, r.measured_s);
  fmt::format_to(std::back_inserter(out), "  {:<15} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n", "latency",
                 "p50", "p90", "p99", "p99.9", "p99.99", "max", "mean");
  const char* names[] = {"response time", "service time", "send lateness"};
  const hdr::Histogram* totals[] = {&r.response_time, &r.service_time, &r.send_lateness};
  for (int slot = 0; slot < 3; ++slot) {
    if (totals[slot]->total_count() > 0)
      latency_row(out, names[slot], results::LatencySummary::of(*totals[slot]));
  }
  return out;
}

}  // namespace openloop::report
