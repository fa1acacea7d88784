// Observed signals: their summary over a run and their JSON form (written and read back).
#include "results/recording/observed.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace openloop::results {

const char* to_string(SignalRole r) {
  switch (r) {
    case SignalRole::utilization:
      return "utilization";
    case SignalRole::saturation:
      return "saturation";
    case SignalRole::errors:
      return "errors";
    case SignalRole::other:
      break;
  }
  return "other";
}

SignalRole parse_signal_role(std::string_view text) {
  if (text == "utilization") return SignalRole::utilization;
  if (text == "saturation") return SignalRole::saturation;
  if (text == "errors") return SignalRole::errors;
  return SignalRole::other;
}

std::optional<std::size_t> Observed::find(std::string_view source, std::string_view name) const {
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (signals[i].source == source && signals[i].name == name) return i;
  }
  return std::nullopt;
}

ObservedSummary summarize_column(const std::vector<std::vector<double>>& values, std::size_t column) {
  ObservedSummary s;
  double sum = 0;
  for (const auto& row : values) {
    if (column >= row.size() || std::isnan(row[column])) continue;
    const double v = row[column];
    s.max = s.intervals == 0 ? v : std::max(s.max, v);
    sum += v;
    ++s.intervals;
  }
  s.mean =
      s.intervals > 0 ? sum / static_cast<double>(s.intervals) : std::numeric_limits<double>::quiet_NaN();
  if (s.intervals == 0) s.max = std::numeric_limits<double>::quiet_NaN();
  return s;
}

namespace {

nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

double number_of(const nlohmann::json& j) {
  return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

bool is_self_source(std::string_view source) {
  return source == "self" || source.starts_with("self [");
}

std::string labelled_source(std::string_view spec, std::string_view label) {
  return fmt::format("{} [{}]", spec, label);
}

nlohmann::json observed_summary_json(const Observed& o, const std::vector<std::vector<double>>& values) {
  nlohmann::json signals = nlohmann::json::array();
  for (std::size_t c = 0; c < o.signals.size(); ++c) {
    const auto& s = o.signals[c];
    const ObservedSummary sum = summarize_column(values, c);
    signals.push_back({{"source", s.source},
                       {"name", s.name},
                       {"unit", s.unit},
                       {"role", to_string(s.role)},
                       {"label", s.label},
                       {"mean", number_or_null(sum.mean)},
                       {"max", number_or_null(sum.max)},
                       {"intervals", sum.intervals}});
  }
  nlohmann::json out = {{"sources", o.sources},
                        {"sampler",
                         {{"period_s", o.sampler.period_s},
                          {"samples", o.sampler.samples},
                          {"cpu_s", o.sampler.cpu_s},
                          {"wall_s", o.sampler.wall_s},
                          {"cpu_share", o.sampler.cpu_share()}}},
                        {"signals", std::move(signals)}};
  if (!o.merged.empty()) out["merged"] = o.merged;
  return out;
}

nlohmann::json observed_interval_json(const Observed& o, const std::vector<double>& values) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t c = 0; c < o.signals.size(); ++c) {
    const double v = c < values.size() ? values[c] : std::numeric_limits<double>::quiet_NaN();
    j[o.signals[c].source][o.signals[c].name] = number_or_null(v);
  }
  return j;
}

Result<Observed> observed_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("signals") || !j["signals"].is_array() || !j.contains("sources") ||
      !j["sources"].is_array()) {
    return usage_error("summary.observed: expected an object with \"sources\" and \"signals\" arrays");
  }
  Observed o;
  for (const auto& s : j["sources"]) {
    if (!s.is_string()) return usage_error("summary.observed.sources: every source must be a string");
    o.sources.push_back(s.get<std::string>());
  }
  for (const auto& s : j["signals"]) {
    if (!s.is_object() || !s.contains("source") || !s["source"].is_string() || !s.contains("name") ||
        !s["name"].is_string()) {
      return usage_error(
          "summary.observed.signals: every signal needs a \"source\" and a \"name\" (strings)");
    }
    ObservedSignal sig;
    sig.source = s["source"].get<std::string>();
    sig.name = s["name"].get<std::string>();
    sig.unit = s.value("unit", "");
    sig.role = parse_signal_role(s.value("role", "other"));
    sig.label = s.value("label", sig.name);
    o.signals.push_back(std::move(sig));
  }
  if (j.contains("sampler") && j["sampler"].is_object()) {
    const auto& s = j["sampler"];
    o.sampler.period_s = number_of(s.value("period_s", nlohmann::json(0.1)));
    o.sampler.samples = s.value("samples", std::uint64_t{0});
    o.sampler.cpu_s = number_of(s.value("cpu_s", nlohmann::json(0.0)));
    o.sampler.wall_s = number_of(s.value("wall_s", nlohmann::json(0.0)));
  }
  if (j.contains("merged") && j["merged"].is_string()) o.merged = j["merged"].get<std::string>();
  return o;
}

Result<std::vector<double>> observed_values_from_json(const Observed& o, const nlohmann::json& j) {
  std::vector<double> values(o.signals.size(), std::numeric_limits<double>::quiet_NaN());
  if (j.is_null()) return values;
  if (!j.is_object())
    return usage_error("intervals[].observed: expected an object {source: {signal: value}}");
  for (std::size_t c = 0; c < o.signals.size(); ++c) {
    const auto src = j.find(o.signals[c].source);
    if (src == j.end() || !src->is_object()) continue;
    const auto v = src->find(o.signals[c].name);
    if (v == src->end() || v->is_null()) continue;
    if (!v->is_number()) {
      return usage_error(fmt::format("intervals[].observed.{}.{}: expected a number or null",
                                     o.signals[c].source, o.signals[c].name));
    }
    values[c] = v->get<double>();
  }
  return values;
}

}  // namespace openloop::results
