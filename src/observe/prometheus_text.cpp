// A tolerant parser of Prometheus text and OpenMetrics: names, labels (escapes kept), values, TYPE lines.
#include "observe/prometheus_text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace openloop::observe {
namespace {

bool name_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         (!first && c >= '0' && c <= '9');
}

std::optional<double> parse_value(std::string_view v) {
  if (v == "+Inf" || v == "Inf" || v == "+inf") return std::numeric_limits<double>::infinity();
  if (v == "-Inf" || v == "-inf") return -std::numeric_limits<double>::infinity();
  if (v == "NaN" || v == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  double d = 0;
  const auto r = std::from_chars(v.data(), v.data() + v.size(), d);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size()) return std::nullopt;
  return d;
}

MetricType type_of(std::string_view t) {
  if (t == "counter") return MetricType::counter;
  if (t == "gauge") return MetricType::gauge;
  if (t == "histogram" || t == "gaugehistogram") return MetricType::histogram;
  if (t == "summary") return MetricType::summary;
  return MetricType::untyped;
}

struct Labels {
  std::string canonical;  // without le
  bool has_le = false;
  std::string le;
};

// Parses `{a="x",b="y"}` starting at line[at] == '{'; sets `at` past the '}'. nullopt when malformed.
std::optional<Labels> parse_labels(std::string_view line, std::size_t& at) {
  Labels out;
  ++at;
  bool first = true;
  for (;;) {
    while (at < line.size() && (line[at] == ' ' || line[at] == ',')) ++at;
    if (at >= line.size()) return std::nullopt;
    if (line[at] == '}') {
      ++at;
      break;
    }
    const std::size_t k0 = at;
    while (at < line.size() && name_char(line[at], at == k0)) ++at;
    const std::string_view key = line.substr(k0, at - k0);
    while (at < line.size() && line[at] == ' ') ++at;
    if (key.empty() || at >= line.size() || line[at] != '=') return std::nullopt;
    ++at;
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size() || line[at] != '"') return std::nullopt;
    const std::size_t v0 = ++at;
    while (at < line.size() && line[at] != '"') at += line[at] == '\\' ? 2 : 1;
    if (at >= line.size()) return std::nullopt;
    const std::string_view value = line.substr(v0, at - v0);
    ++at;
    if (key == "le") {
      out.has_le = true;
      out.le.assign(value);
      continue;
    }
    out.canonical += fmt::format("{}{}=\"{}\"", first ? "" : ",", key, value);
    first = false;
  }
  if (!out.canonical.empty()) out.canonical = "{" + out.canonical + "}";
  return out;
}

// The family a sample name belongs to, given the families TYPE declared.
std::string family_of(const std::string& name, const std::map<std::string, MetricType, std::less<>>& types) {
  if (types.count(name) > 0) return name;
  for (const char* suffix : {"_total", "_bucket", "_count", "_sum", "_created", "_gcount", "_gsum"}) {
    const std::string_view s(suffix);
    if (name.size() > s.size() && name.ends_with(s)) {
      const std::string base = name.substr(0, name.size() - s.size());
      if (types.count(base) > 0) return base;
    }
  }
  return name;
}

}  // namespace

Result<std::vector<MetricSample>> parse_metrics(std::string_view text) {
  std::vector<MetricSample> out;
  std::map<std::string, MetricType, std::less<>> types;
  std::size_t at = 0, number = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty()) continue;
    if (line.front() == '#') {
      if (line.starts_with("# TYPE ")) {
        std::string_view rest = line.substr(7);
        const std::size_t sp = rest.find(' ');
        if (sp != std::string_view::npos)
          types[std::string(rest.substr(0, sp))] = type_of(rest.substr(sp + 1));
      }
      continue;
    }
    std::size_t i = 0;
    while (i < line.size() && name_char(line[i], i == 0)) ++i;
    if (i == 0)
      return runtime_error(
          fmt::format("line {}: expected a metric name, found \"{}\"", number, line.substr(0, 40)));
    MetricSample s;
    s.name.assign(line.substr(0, i));
    if (i < line.size() && line[i] == '{') {
      auto labels = parse_labels(line, i);
      if (!labels)
        return runtime_error(fmt::format("line {}: malformed labels in \"{}\"", number, line.substr(0, 80)));
      s.labels = std::move(labels->canonical);
      if (labels->has_le) {
        const auto le = parse_value(labels->le);
        if (!le) return runtime_error(fmt::format("line {}: le=\"{}\" is not a number", number, labels->le));
        s.has_le = true;
        s.le = *le;
      }
    }
    while (i < line.size() && line[i] == ' ') ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ') ++j;
    const auto value = parse_value(line.substr(i, j - i));
    if (!value)
      return runtime_error(fmt::format("line {}: \"{}\" is not a value", number, line.substr(i, j - i)));
    s.value = *value;
    if (s.name.ends_with("_created")) continue;
    s.family = family_of(s.name, types);
    const auto t = types.find(s.family);
    s.type = t == types.end() ? MetricType::untyped : t->second;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace openloop::observe
