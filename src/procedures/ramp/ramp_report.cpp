// The ramp's terminal output: one line per step as it is judged, then the table, the findings and the notes.
#include "procedures/ramp/ramp_report.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "procedures/ramp/ramp_repeats.h"

namespace openloop::procedures {
namespace {

std::string ms(std::int64_t ns) {
  return format_ms(static_cast<double>(ns) / 1e6);
}
std::string per_s(double r) {
  return r >= 100 ? fmt::format("{:.0f}", r) : fmt::format("{:.1f}", r);
}
std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (part == 0) return "0";
  const double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return p >= 10 ? fmt::format("{:.0f}%", p) : p >= 1 ? fmt::format("{:.1f}%", p) : fmt::format("{:.2f}%", p);
}

// "9.10 [8.80–9.62]": the value and its 95 % CI in ms; a side without enough samples shows "?".
std::string p99_cell(const StepAnalysis& a) {
  const stats::QuantileEstimate& q = a.latency[2];
  if (q.count == 0) return "–";
  if (a.p99_censored) return fmt::format("≥{} (timeout)", ms(q.value));
  return fmt::format("{} [{}–{}]", ms(q.value), q.low ? ms(*q.low) : "?", q.high ? ms(*q.high) : "?");
}

std::string slo_cell(const StepRecord& s) {
  if (s.analysis.state == StepState::invalid) return "–";
  for (const auto& r : s.slos) {
    if (!r.evaluated || !r.met) return "✗ " + r.slo.text;
  }
  return "met";
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

}  // namespace

std::string ramp_table(const RampOutcome& o) {
  constexpr auto row =
      "{:>4}  {:>8}  {:>8}  {:>9}  {:>8}  {:>8}  {:<26}  {:>7}  {:>6}  {:>8}  {:<8}  {:<18}  {}\n";
  // completed and goodput count the same requests (the step's own, by intended time), so goodput ≤ completed
  // in every row; responses arriving while the step ran, whichever step's requests they answered, are resp/s.
  std::string out =
      "per second; completed and goodput: the step's own requests that got a response / succeeded within the "
      "deadline; resp/s: responses that arrived during the step (wall clock, any step's requests)\n";
  out += fmt::format(row, "step", "offered", "sent/s", "completed", "goodput", "resp/s", "p99 ms [95% CI]",
                     "dropped", "errors", "timeouts", "state", "SLO", "mark");
  for (const std::size_t i : steps_by_offered(o)) {
    const StepRecord& s = o.steps[i];
    const StepAnalysis& a = s.analysis;
    const auto& c = a.results.totals;
    out += fmt::format(row, s.number, per_s(a.window.offered_rps) + "/s", per_s(a.sent_rps),
                       per_s(a.completed_of_arrivals_rps), per_s(a.goodput_rps), per_s(a.completed_rps),
                       p99_cell(a), percent(c.dropped, c.intended), percent(c.errors_total(), c.intended),
                       percent(c.timeouts, c.intended), to_string(a.state), slo_cell(s),
                       join(step_marks(o, i), ", "));
  }
  return out;
}

namespace {

// Seed 000's "441 vs 88": the valid step where the most completed work arrived too late or failed.
std::string waste_line(const RampOutcome& o) {
  const StepRecord* worst = nullptr;
  double worst_share = 0.10;
  for (const auto& s : o.steps) {
    const auto& a = s.analysis;
    if (a.state == StepState::invalid || a.completed_rps <= 0) continue;
    const double share = 1 - a.goodput_rps / a.completed_rps;
    if (share > worst_share) {
      worst_share = share;
      worst = &s;
    }
  }
  if (worst == nullptr) return {};
  const auto& a = worst->analysis;
  return fmt::format(
      "Throughput vs goodput: at {}/s offered, responses arrived at {}/s but only {}/s of the step's "
      "requests succeeded within the deadline: {:.0f}% of the work the client saw finished was of no "
      "use to anyone.\n",
      per_s(a.window.offered_rps), per_s(a.completed_rps), per_s(a.goodput_rps), 100 * worst_share);
}

// Why the steps that did not pass failed (their state's reasons, SLOs missed); a step that passed is never
// listed there, its remarks go to step_notes().
std::string step_reasons(const RampOutcome& o) {
  std::string out;
  for (const std::size_t i : steps_by_offered(o)) {
    const auto& s = o.steps[i];
    if (s.passes()) continue;
    for (const auto& why : s.analysis.reasons) {
      out += fmt::format("  step {} ({}/s) {}: {}\n", s.number, per_s(s.analysis.window.offered_rps),
                         to_string(s.analysis.state), why);
    }
  }
  return out;
}

// What to know about any step: a passing step's remarks, correlated samples, a goodput that is a lower bound.
std::string step_notes(const RampOutcome& o) {
  std::string out;
  for (const std::size_t i : steps_by_offered(o)) {
    const auto& s = o.steps[i];
    if (s.passes()) {
      for (const auto& why : s.analysis.reasons) {
        out += fmt::format("  step {} ({}/s) {}: {}\n", s.number, per_s(s.analysis.window.offered_rps),
                           to_string(s.analysis.state), why);
      }
    }
    if (const std::string flag = results::correlation_flag(s.analysis.independence); !flag.empty()) {
      out += fmt::format("  step {} ({}/s): {}\n", s.number, per_s(s.analysis.window.offered_rps), flag);
    }
    if (!s.analysis.goodput_exact) {
      out += fmt::format("  step {}: goodput is a lower bound (non-success statuses among the responses)\n",
                         s.number);
    }
  }
  return out;
}

// --repeat, one line per step: the spread of its p99 across the repeats, which one it is judged on.
std::string repeat_lines(const RampOutcome& o) {
  std::string out;
  for (const std::size_t i : steps_by_offered(o)) {
    const auto& s = o.steps[i];
    if (s.repeats.empty()) continue;
    out += fmt::format("  step {} ({}/s): {}\n", s.number, per_s(s.analysis.window.offered_rps),
                       repeats_line(s));
  }
  return out;
}

// --step-until, one line per step and target: how long the step held and what its intervals reached.
std::string until_lines(const RampOutcome& o) {
  std::string out;
  for (const std::size_t i : steps_by_offered(o)) {
    const auto& s = o.steps[i];
    for (const auto& u : s.until) {
      out += fmt::format("  step {} ({}/s, held {:.1f} s): {}\n", s.number,
                         per_s(s.analysis.window.offered_rps), s.analysis.results.measured_s, u.sentence());
    }
  }
  return out;
}

// The step line's --step-until part: " held 12.0 s; --step-until met" or "...; not met: p99.9 ±1 %".
std::string until_part(const StepRecord& step) {
  if (step.until.empty()) return {};
  std::vector<std::string> missed;
  for (const auto& u : step.until) {
    if (!u.met) missed.push_back(fmt::format("p{:g} ±{:g} %", u.target.percentile, u.target.relative * 100));
  }
  return fmt::format("  held {:.1f} s; --step-until {}", step.analysis.results.measured_s,
                     missed.empty() ? std::string("met") : "not met: " + join(missed, ", "));
}

}  // namespace

std::string format_ms(double v) {
  if (v >= 100) return fmt::format("{:.0f}", v);
  if (v >= 10) return fmt::format("{:.1f}", v);
  return fmt::format("{:.2f}", v);
}

std::vector<std::size_t> steps_by_offered(const RampOutcome& o) {
  std::vector<std::size_t> idx(o.steps.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return o.steps[a].analysis.window.offered_rps < o.steps[b].analysis.window.offered_rps;
  });
  return idx;
}

std::vector<std::string> step_marks(const RampOutcome& o, std::size_t i) {
  const RampFindings& f = o.findings;
  std::vector<std::string> marks;
  const auto is = [i](const std::optional<std::size_t>& k) { return k && *k == i; };
  if (is(f.capacity)) marks.emplace_back("capacity");
  if (is(f.ceiling)) marks.emplace_back("ceiling");
  if (is(f.knee_latency)) marks.emplace_back("knee p99");
  if (is(f.knee_goodput)) marks.emplace_back("knee goodput");
  if (is(f.peak) && f.collapse) marks.emplace_back("peak goodput");
  if (is(f.collapse)) marks.emplace_back("collapse");
  if (is(f.collapse_confirmed_by)) marks.emplace_back("collapse confirmed");
  if (o.steps[i].refinement) marks.emplace_back("refined");
  return marks;
}

std::string step_line(const StepRecord& step) {
  const StepAnalysis& a = step.analysis;
  return fmt::format(
      "step {}{}: offered {}/s  completed {}/s  goodput {}/s (of its requests)  resp/s {}  p99 {} ms  {}  "
      "SLO {}{}{}",
      step.number, step.refinement ? " (refine)" : "", per_s(a.window.offered_rps),
      per_s(a.completed_of_arrivals_rps), per_s(a.goodput_rps), per_s(a.completed_rps), p99_cell(a),
      to_string(a.state), slo_cell(step), until_part(step),
      step.repeats.empty() ? std::string() : "  " + repeats_line(step));
}

std::string render_ramp_summary(const RampOutcome& o, const RampSettings& s) {
  std::string out = ramp_table(o) + "\n" + findings_sentence(o.steps, o.findings) + "\n";
  out += waste_line(o);
  if (s.default_slo)
    out += "No --slo given: a step passes when it is steady and goodput>=99% of its arrivals.\n";
  const bool timed_out = std::any_of(o.steps.begin(), o.steps.end(), [](const StepRecord& st) {
    return st.analysis.results.totals.timeouts > 0;
  });
  if (timed_out && (s.step.deadline.count() == 0 || s.step.deadline >= s.step.timeout)) {
    out +=
        "The client gave up at the deadline, so responses after it were never seen: give --timeout longer "
        "than "
        "--deadline to count the work done too late as throughput.\n";
  }
  if (const std::string until = until_lines(o); !until.empty()) out += "--step-until:\n" + until;
  if (const std::string repeats = repeat_lines(o); !repeats.empty()) {
    out += "Repeats (each step judged on its upper median repeat by p99; the table shows that repeat):\n" +
           repeats;
  }
  const std::string reasons = step_reasons(o);
  if (!reasons.empty()) out += "Why steps did not pass:\n" + reasons;
  if (const std::string notes = step_notes(o); !notes.empty()) out += "Notes on steps:\n" + notes;
  if (!o.stopped.empty()) out += "Stopped: " + o.stopped + ".\n";
  if (o.interrupted) out += "Interrupted: the steps judged before the signal are shown.\n";
  for (const auto& n : o.notes) out += "Note: " + n + ".\n";
  std::size_t invalid = 0;
  const results::RunResults* first = nullptr;
  for (const auto& r : o.runs) {
    if (r.verdict.valid) continue;
    ++invalid;
    if (first == nullptr) first = &r;
  }
  if (first != nullptr) {
    out += fmt::format(
        "Judged whole, with run's bounds, {} of {} run(s) were INVALID ({}); each step is judged on its "
        "own window above.\n",
        invalid, o.runs.size(), join(first->verdict.reasons, "; "));
  }
  return out;
}

}  // namespace openloop::procedures
