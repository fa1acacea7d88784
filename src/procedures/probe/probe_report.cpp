// The probe's verdict over repeats, its terminal table and its JSON document.
#include "procedures/probe/probe_report.h"
#include "procedures/probe/probe_format.h"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "results/files/results_json.h"
#include "results/judging/run_checks.h"

namespace openloop::procedures {
namespace {

std::string pct(double f) {
  return fmt::format("{:.1f}%", 100 * f);
}

std::string row_text(const PhaseRow& row, bool lab) {
  const Stats& s = row.stats;
  const std::string span =
      fmt::format("{:.0f}–{:.0f}s", to_seconds(row.phase.start), to_seconds(row.phase.end()));
  if (row.skipped)
    return fmt::format("{:<10} {:<10} {:>9}  (not needed: recovered at the base load)\n", row.phase.name(),
                       span, rate_of(row.phase.rate));
  std::string line =
      fmt::format("{:<10} {:<10} {:>9} {:>9} {:>9} {:>10} {:>9} {:>8.1f} {:>8} {:>7} {:>6.2f}",
                  row.phase.name(), span, rate_of(row.phase.rate), rate_of(s.offered), rate_of(s.goodput),
                  rate_of(s.throughput), format_duration(Nanos(s.p99_ns)), s.in_flight,
                  pct(s.timeout_fraction), pct(s.not_ok_fraction), s.amplification);
  if (lab) line += fmt::format(" {:>9}", row.lab_queue_max ? std::to_string(*row.lab_queue_max) : "–");
  return line + "\n";
}

// "  observe    p50 1.02ms (0.98ms–1.07ms), p90 …, p99 …, 95 % intervals" and, when the phase's samples were
// correlated, the flag ("samples correlated at lag 12, effective n 310 of 2,000; interval widened ×2.5").
std::string intervals_text(const PhaseRow& row) {
  if (row.skipped || row.latency[0].count == 0) return {};
  const auto side = [](const std::optional<std::int64_t>& ns) {
    return ns ? format_duration(Nanos(*ns)) : std::string("…");
  };
  std::string line = fmt::format("  {:<10}", row.phase.name());
  static constexpr const char* k_names[] = {"p50", "p90", "p99", "p99.9"};
  for (std::size_t i = 0; i < row.latency.size(); ++i) {
    const stats::QuantileEstimate& q = row.latency[i];
    line += fmt::format("{} {} {} ({}–{})", i == 0 ? "" : ",", k_names[i], format_duration(Nanos(q.value)),
                        side(q.low), side(q.high));
  }
  line += "; 95 % intervals";
  if (const std::string flag = results::correlation_flag(row.independence); !flag.empty())
    line += "; " + flag;
  return line + "\n";
}

// "23360096372ns" (the lab's exact form) as a duration people read, e.g. "23.4s".
std::string lab_time(const std::string& ns) {
  char* end = nullptr;
  const double v = std::strtod(ns.c_str(), &end);
  if (end == ns.c_str() || std::string(end) != "ns") return ns;
  return format_duration(Nanos(static_cast<std::int64_t>(v)));
}

// One setting of a lab configuration change in words: "stall 1s from lab uptime 23.4s", "dependency 105ms".
std::string lab_setting_words(const std::string& key, const nlohmann::json& value) {
  if (key == "stall-at" && value.is_array()) {
    if (value.empty()) return "no stalls scheduled";
    std::string out;
    for (const auto& item : value) {
      const std::string text = item.is_string() ? item.get<std::string>() : item.dump();
      const auto plus = text.find('+');
      out += out.empty() ? "" : ", ";
      out += plus == std::string::npos
                 ? "stall at " + text
                 : fmt::format("stall {} from lab uptime {}", lab_time(text.substr(plus + 1)),
                               lab_time(text.substr(0, plus)));
    }
    return out;
  }
  if (key == "dependency" && value.is_string()) {
    const std::string v = value.get<std::string>();
    return v == "none" ? "no dependency" : "dependency " + v;
  }
  return key + " " + (value.is_string() ? value.get<std::string>() : value.dump());
}

// A recorded lab call ("POST URL {json}", as in the results file) in words, the URL after it.
std::string lab_action_words(const std::string& action) {
  const auto brace = action.find('{');
  if (brace == std::string::npos) return action;
  const nlohmann::json change = nlohmann::json::parse(action.substr(brace), nullptr, false);
  if (!change.is_object() || change.empty()) return action;
  std::string words;
  for (const auto& [key, value] : change.items())
    words += (words.empty() ? "" : "; ") + lab_setting_words(key, value);
  std::string call = action.substr(0, brace);
  while (!call.empty() && call.back() == ' ') call.pop_back();
  return fmt::format("{} ({})", words, call);
}

std::string run_text(const ProbeRun& run, std::size_t index, std::size_t of) {
  const ProbeOutcome& o = run.outcome;
  const bool lab = !run.lab.empty();
  std::string out = of > 1 ? fmt::format("\nrun {} of {}\n", index + 1, of) : "\n";
  out += fmt::format("{:<10} {:<10} {:>9} {:>9} {:>9} {:>10} {:>9} {:>8} {:>8} {:>7} {:>6}{}\n", "phase",
                     "time", "planned", "offered", "goodput", "throughput", "p99", "in flight", "timeouts",
                     "not ok", "ampl.", lab ? "  lab queue" : "");
  for (const PhaseRow& row : o.phases) out += row_text(row, lab);
  for (const PhaseRow& row : o.phases) out += intervals_text(row);
  for (const auto& s : run.baseline_slos) {
    out += fmt::format("baseline SLO {}: {} (measured {})\n", s.slo.text,
                       s.evaluated && s.met ? "met" : "MISSED", s.measured_text);
  }
  out += fmt::format("\n{}\n", o.sentence);
  for (const Signal& s : o.signals) out += fmt::format("  signal: {}: {}\n", s.name, s.text);
  for (const auto& n : o.notes) out += "  note: " + n + "\n";
  for (std::size_t i = 0; i < run.lab_actions.size(); ++i) {
    // The first call sets the trigger, a later one restores what the lab had before it.
    out += fmt::format("  lab: {} {}\n", i == 0 ? "set" : "restored", lab_action_words(run.lab_actions[i]));
  }
  return out;
}

}  // namespace

ProbeVerdict overall_verdict(const ProbeReport& r) {
  const auto any = [&](ProbeVerdict v) {
    for (const auto& run : r.runs) {
      if (run.outcome.verdict == v) return true;
    }
    return false;
  };
  for (ProbeVerdict v :
       {ProbeVerdict::metastable, ProbeVerdict::recovered_at_lower_load, ProbeVerdict::recovered}) {
    if (any(v)) return v;
  }
  return ProbeVerdict::inconclusive;
}

std::string overall_sentence(const ProbeReport& r) {
  if (r.runs.size() == 1) return r.runs.front().outcome.sentence;
  const ProbeVerdict v = overall_verdict(r);
  std::size_t k = 0, inconclusive = 0;
  std::string times;
  for (const auto& run : r.runs) {
    if (run.outcome.verdict == v) ++k;
    if (run.outcome.verdict == ProbeVerdict::inconclusive) ++inconclusive;
    if (run.outcome.recovery_s)
      times += (times.empty() ? "" : ", ") + fmt::format("{:.0f}s", *run.outcome.recovery_s);
  }
  std::string text = fmt::format("{} in {} of {} runs", to_string(v), k, r.runs.size());
  if (!times.empty()) text += fmt::format(" (recovery after {})", times);
  if (inconclusive > 0 && v != ProbeVerdict::inconclusive)
    text += fmt::format("; {} inconclusive", inconclusive);
  return text;
}

int probe_exit_code(const ProbeReport& r) {
  if (r.interrupted) return static_cast<int>(ExitCode::interrupted);
  switch (overall_verdict(r)) {
    case ProbeVerdict::recovered:
      return static_cast<int>(ExitCode::ok);
    case ProbeVerdict::recovered_at_lower_load:
    case ProbeVerdict::metastable:
      return static_cast<int>(ExitCode::slo_failed);
    case ProbeVerdict::inconclusive:
      return static_cast<int>(ExitCode::invalid_run);
  }
  return static_cast<int>(ExitCode::invalid_run);
}

std::string render_probe_text(const ProbeReport& r) {
  const ProbeSettings& s = r.plan.settings;
  std::string out =
      fmt::format("openloop probe metastable: {} at {}; trigger {}; window {}\n", r.target,
                  rate_of(s.base_rate), describe(s.trigger, s.trigger_for), format_duration(s.window));
  for (std::size_t i = 0; i < r.runs.size(); ++i) out += run_text(r.runs[i], i, r.runs.size());
  if (r.runs.size() > 1) out += fmt::format("\n{}\n", overall_sentence(r));
  return out;
}

nlohmann::json probe_json(const ProbeReport& r) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : r.runs) {
    nlohmann::json lab = nlohmann::json::array();
    for (const LabSample& s : run.lab) {
      lab.push_back({{"t_s", s.t_s},
                     {"frozen", s.frozen},
                     {"queue_depth", s.queue_depth},
                     {"held", s.held},
                     {"busy_workers", s.busy_workers},
                     {"dependency_waiting", s.dependency_waiting},
                     {"completed", s.completed},
                     {"ok", s.ok},
                     {"shed", s.shed},
                     {"rejected", s.rejected},
                     {"expired", s.expired}});
    }
    nlohmann::json slos = nlohmann::json::array();
    for (const auto& s : run.baseline_slos) {
      slos.push_back({{"slo", s.slo.text},
                      {"evaluated", s.evaluated},
                      {"met", s.met},
                      {"measured", s.measured_text},
                      {"threshold", s.threshold_text}});
    }
    nlohmann::json one = run.outcome.to_json();
    one["baseline_slos"] = slos;
    one["lab_samples"] = lab;
    one["lab_actions"] = run.lab_actions;
    one["results"] = results::to_json(run.results);
    runs.push_back(std::move(one));
  }
  const auto& first = r.runs.empty() ? nullptr : &r.runs.front().outcome;
  // The signals of the first run that reached the overall verdict: what the sentence is about.
  nlohmann::json signals = nlohmann::json::array();
  for (const auto& run : r.runs) {
    if (run.outcome.verdict != overall_verdict(r)) continue;
    for (const Signal& s : run.outcome.signals) signals.push_back({{"name", s.name}, {"text", s.text}});
    break;
  }
  nlohmann::json j = {{"schema", k_probe_schema},
          {"procedure", "metastable"},
          {"target", r.target},
          {"lab_control", r.lab_control},
          {"verdict", to_string(overall_verdict(r))},
          {"sentence", overall_sentence(r)},
          {"recovery_s", first != nullptr && first->recovery_s && r.runs.size() == 1
                             ? nlohmann::json(*first->recovery_s)
                             : nlohmann::json()},
          {"signals", signals},
          {"interrupted", r.interrupted},
          {"probe", r.plan.describe()},
          {"runs", runs}};
  if (!r.run_id.empty()) j["run_id"] = r.run_id;
  return j;
}

}  // namespace openloop::procedures
