// Observed signals per ramp step, and naming the resource that saturated first at the knee.
#include "observe/ramp_observed.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::observe {
namespace {

using results::SignalRole;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

double floor_of(const std::string& unit) {
  return unit == "share" || unit == "s/s" ? 0.05 : 1.0;
}

std::string value_text(double v, const std::string& unit) {
  if (std::isnan(v)) return "-";
  if (unit == "bytes") return fmt::format("{:.1f}MiB", v / (1 << 20));
  if (unit == "/s") return fmt::format("{:.3g}/s", v);
  if (unit == "s/s") return fmt::format("{:.3g}s/s", v);
  if (unit == "s") return fmt::format("{:.3g}s", v);
  return fmt::format("{:.3g}", v);
}

// A process's CPU demand: the share of its allowed cores it ran plus the share it waited for one (run-queue
// wait per allowed core), of what the hypervisor left of them. A process on a core shared with others may run
// 0.5 of it and wait the other 0.5; one on a core the hypervisor takes 15% of (steal, not counted as anyone's
// CPU) runs at most 0.85 of it. Either way its CPU is saturated though its utilization alone is not. The
// host's steal is an average over its cores: the estimate of what was left of the allowed ones.
void add_cpu_demand(const StepSignals& s, std::size_t knee, std::vector<Finding>& out) {
  const auto& row = s.values[knee];
  double steal = 0;
  for (std::size_t k = 0; k < s.signals.size(); ++k) {
    if (s.signals[k].source == "host" && s.signals[k].name == "cpu_steal" && row[k] > 0 && row[k] < 1)
      steal = row[k];
  }
  for (std::size_t c = 0; c < s.signals.size(); ++c) {
    const auto& sig = s.signals[c];
    if (sig.name != "cpu_of_allowed" || std::isnan(row[c]) || row[c] >= 0.9 || !(row[c] > 0)) continue;
    std::optional<std::size_t> cpu, wait;
    for (std::size_t k = 0; k < s.signals.size(); ++k) {
      if (s.signals[k].source != sig.source) continue;
      if (s.signals[k].name == "cpu") cpu = k;
      if (s.signals[k].name == "runq_wait") wait = k;
    }
    const bool waited = cpu && wait && !std::isnan(row[*cpu]) && !std::isnan(row[*wait]);
    if (!waited && steal == 0) continue;
    const double waiting = waited ? row[*wait] / (row[*cpu] / row[c]) : 0.0;
    const double demand = (row[c] + waiting) / (1 - steal);
    if (demand < 0.9) continue;
    const std::string who = sig.source == "self" ? "the generator's (self)" : sig.source + "'s";
    const std::string stolen = steal > 0 ? fmt::format(", the host's steal {:.2f}", steal) : "";
    out.push_back(
        {c, demand, k_nan,
         fmt::format("{} CPU demand was {:.2f} of {}its allowed cores (running {:.2f}, waiting for a CPU "
                     "{:.2f}{})",
                     who, demand, steal > 0 ? "what the hypervisor left of " : "", row[c], waiting, stolen)});
  }
}

const char* role_word(SignalRole r) {
  switch (r) {
    case SignalRole::utilization:
      return "utilisation";
    case SignalRole::saturation:
      return "queue";
    case SignalRole::errors:
      return "errors";
    case SignalRole::other:
      return "other";
  }
  return "other";
}

}  // namespace

StepSignals step_signals(const procedures::RampOutcome& o) {
  StepSignals out;
  // The union of every run's signals.
  std::vector<std::vector<std::size_t>> column_of(o.runs.size());
  for (std::size_t r = 0; r < o.runs.size(); ++r) {
    for (const auto& sig : o.runs[r].observed.signals) {
      std::size_t c = 0;
      while (c < out.signals.size() &&
             !(out.signals[c].source == sig.source && out.signals[c].name == sig.name))
        ++c;
      if (c == out.signals.size()) out.signals.push_back(sig);
      column_of[r].push_back(c);
    }
  }
  for (const auto& step : o.steps) {
    const auto& w = step.analysis.window;
    out.offered_rps.push_back(w.offered_rps);
    std::vector<double> row(out.signals.size(), k_nan);
    if (w.run < o.runs.size()) {
      const auto& run = o.runs[w.run];
      std::vector<double> sum(out.signals.size(), 0.0);
      std::vector<std::size_t> n(out.signals.size(), 0);
      for (const auto& in : run.intervals) {
        if (in.start_s < w.from_s - 1e-9 || in.start_s >= w.to_s - 1e-9) continue;
        for (std::size_t k = 0; k < in.observed.size() && k < column_of[w.run].size(); ++k) {
          if (std::isnan(in.observed[k])) continue;
          sum[column_of[w.run][k]] += in.observed[k];
          ++n[column_of[w.run][k]];
        }
      }
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (n[c] > 0) row[c] = sum[c] / static_cast<double>(n[c]);
      }
    }
    out.values.push_back(std::move(row));
  }
  return out;
}

std::optional<std::size_t> knee_step(const procedures::RampOutcome& o) {
  // The first step the target could not carry (above capacity) is where a resource was full; Kneedle's knees
  // mark the last step that still followed the offered rate, and the latency knee can come from noise.
  if (o.findings.ceiling) return o.findings.ceiling;
  if (o.findings.knee_goodput) return o.findings.knee_goodput;
  if (o.findings.knee_latency) return o.findings.knee_latency;
  return std::nullopt;
}

std::vector<Finding> saturated_at(const StepSignals& s, std::size_t knee) {
  std::vector<Finding> out;
  if (knee >= s.values.size()) return out;
  for (std::size_t c = 0; c < s.signals.size(); ++c) {
    const auto& sig = s.signals[c];
    const double v = s.values[knee][c];
    double first = k_nan;
    for (const auto& row : s.values) {
      if (!std::isnan(row[c])) {
        first = row[c];
        break;
      }
    }
    if (std::isnan(v)) continue;
    // An exporter's series is named as it is scraped, family{labels}, with its role: the name people grep
    // for.
    const bool exported = sig.source.starts_with("prometheus:");
    const std::string who = exported               ? std::string()
                            : sig.source == "host" ? "the host's "
                            : sig.source == "self" ? "the generator's (self) "
                                                   : sig.source + "'s ";
    const std::string label = exported ? fmt::format("{} ({})", sig.name, role_word(sig.role)) : sig.label;
    Finding f{c, v, first, ""};
    switch (sig.role) {
      case SignalRole::utilization:
        if (v >= 0.9) f.phrase = fmt::format("{}{} was {:.2f}", who, label, v);
        break;
      case SignalRole::saturation:
        if (v >= floor_of(sig.unit)) {
          if (!(first > 0)) {
            f.phrase = fmt::format("{}{} rose from 0 to {}", who, label, value_text(v, sig.unit));
          } else if (v / first >= 4) {
            f.phrase = fmt::format("{}{} rose {:.0f}× ({} → {})", who, label, v / first,
                                   value_text(first, sig.unit), value_text(v, sig.unit));
          } else if ((sig.unit == "s/s" || sig.unit == "share") && v >= 0.5) {
            // Waiting half the time or more is saturation whatever it was before (a CPU shared with others
            // can be saturated from the first step).
            f.phrase = fmt::format("{}{} was {}", who, label, value_text(v, sig.unit));
          }
        }
        break;
      case SignalRole::errors:
        if (v > 1 && v > 2 * (std::isnan(first) ? 0 : first)) {
          f.phrase = fmt::format("{}{} rose to {}", who, label, value_text(v, sig.unit));
        }
        break;
      case SignalRole::other:
        break;
    }
    if (!f.phrase.empty()) out.push_back(std::move(f));
  }
  add_cpu_demand(s, knee, out);
  return out;
}

std::string knee_sentence(const procedures::RampOutcome& o) {
  const StepSignals s = step_signals(o);
  bool target_observed = false;
  for (const auto& sig : s.signals) target_observed = target_observed || sig.source != "self";
  if (!target_observed) {
    return "Nothing of the target was observed, so the resource that saturated cannot be named: run again "
           "with "
           "--observe (e.g. --observe pid:PID or process:NAME for the target on this host, --observe host, "
           "--observe prometheus:URL for its metrics; see docs/observe.md).";
  }
  const auto knee = knee_step(o);
  if (!knee) {
    return "No knee was found (latency did not rise beyond its noise and every step passed), so no resource "
           "is "
           "named as saturated.";
  }
  const auto found = saturated_at(s, *knee);
  const bool ceiling = o.findings.ceiling && *o.findings.ceiling == *knee;
  const std::string at = fmt::format("At {} ({}, step {})", format_rate(s.offered_rps[*knee]),
                                     ceiling ? "the first step above capacity" : "the knee", *knee + 1);
  if (found.empty()) {
    return at +
           " no observed signal was saturated: look beyond what was observed (a dependency, locks, the "
           "network, another host).";
  }
  std::string text = at + " ";
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (i > 0) text += i + 1 == found.size() ? " and " : ", ";
    text += found[i].phrase;
  }
  bool generator = false;
  for (const auto& f : found) generator = generator || s.signals[f.signal].source == "self";
  text += "; nothing else was saturated.";
  if (generator)
    text += " The generator itself (self) was among them: the knee may be openloop's, not the target's.";
  return text;
}

std::string render_ramp_observed(const procedures::RampOutcome& o) {
  const StepSignals s = step_signals(o);
  std::string out;
  if (!s.signals.empty() && !s.values.empty()) {
    out += "\nObserved per step (mean of each step's measured intervals):\n";
    out += fmt::format("  {:<44}", "signal");
    for (double r : s.offered_rps) out += fmt::format(" {:>9}", format_rate(r));
    out += "\n";
    // The source once, as a heading, then its signals by name (an exporter's as family{labels}), so a long
    // source such as prometheus:http://host:port/metrics does not crowd every row's name out of its column.
    std::vector<std::string> sources;
    for (const auto& sig : s.signals) {
      if (std::find(sources.begin(), sources.end(), sig.source) == sources.end())
        sources.push_back(sig.source);
    }
    for (const std::string& source : sources) {
      out += fmt::format("  {}\n", source);
      for (SignalRole role :
           {SignalRole::utilization, SignalRole::saturation, SignalRole::errors, SignalRole::other}) {
        for (std::size_t c = 0; c < s.signals.size(); ++c) {
          const auto& sig = s.signals[c];
          if (sig.role != role || sig.source != source) continue;
          std::string name = sig.name;
          if (name.size() > 42) name = name.substr(0, 41) + "…";
          out += fmt::format("    {:<42}", name);
          for (const auto& row : s.values) out += fmt::format(" {:>9}", value_text(row[c], sig.unit));
          out += "\n";
        }
      }
    }
  }
  out += "\n" + knee_sentence(o) + "\n";
  return out;
}

nlohmann::json ramp_observed_json(const procedures::RampOutcome& o) {
  const StepSignals s = step_signals(o);
  nlohmann::json signals = nlohmann::json::array();
  for (std::size_t c = 0; c < s.signals.size(); ++c) {
    const auto& sig = s.signals[c];
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& row : s.values)
      steps.push_back(std::isfinite(row[c]) ? nlohmann::json(row[c]) : nlohmann::json());
    signals.push_back({{"source", sig.source},
                       {"name", sig.name},
                       {"unit", sig.unit},
                       {"role", results::to_string(sig.role)},
                       {"label", sig.label},
                       {"steps", std::move(steps)}});
  }
  nlohmann::json j = {{"signals", std::move(signals)}, {"knee", knee_sentence(o)}};
  if (const auto k = knee_step(o)) {
    nlohmann::json saturated = nlohmann::json::array();
    for (const auto& f : saturated_at(s, *k))
      saturated.push_back(
          {{"source", s.signals[f.signal].source},
           {"name", s.signals[f.signal].name},
           {"at_knee", f.at_knee},
           {"at_first_step", std::isfinite(f.at_first) ? nlohmann::json(f.at_first) : nlohmann::json()}});
    j["saturated_at_knee"] = std::move(saturated);
    j["knee_step"] = *k + 1;
  }
  return j;
}

}  // namespace openloop::observe
