// The metric table and its text rendering (Prometheus 0.0.4 and OpenMetrics 1.0).
#include "report/metrics/metric_families.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace openloop::report {

void MetricTable::family(std::string name, MetricType type, std::string help) {
  m_families.push_back({std::move(name), type, std::move(help), {}});
}

MetricLabels MetricTable::with_base(const MetricLabels& extra) const {
  MetricLabels labels = m_base;
  labels.insert(labels.end(), extra.begin(), extra.end());
  return labels;
}

void MetricTable::value(double v, const MetricLabels& extra) {
  m_families.back().series.push_back({with_base(extra), v, nullptr});
}

void MetricTable::histogram(const hdr::Histogram& h, const MetricLabels& extra) {
  m_families.back().series.push_back({with_base(extra), 0, &h});
}

void MetricTable::single(std::string name, MetricType type, std::string help, double v) {
  family(std::move(name), type, std::move(help));
  value(v);
}

std::vector<MetricFamily> merge_families(std::vector<std::vector<MetricFamily>> parts) {
  std::vector<MetricFamily> out;
  for (auto& part : parts) {
    for (MetricFamily& f : part) {
      auto same =
          std::find_if(out.begin(), out.end(), [&](const MetricFamily& o) { return o.name == f.name; });
      if (same == out.end()) {
        out.push_back(std::move(f));
      } else {
        same->series.insert(same->series.end(), std::make_move_iterator(f.series.begin()),
                            std::make_move_iterator(f.series.end()));
      }
    }
  }
  return out;
}

const std::vector<double>& classic_bucket_bounds() {
  static const std::vector<double> bounds{0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                          0.05,   0.1,    0.2,    0.5,   1,     2,     5,    10};
  return bounds;
}

std::uint64_t count_at_most(const hdr::Histogram& h, double bound_s) {
  const auto bound_ns = static_cast<std::int64_t>(bound_s * 1e9);
  std::int64_t below = 0;
  for (std::int32_t i = 0, used = h.used_length(); i < used; ++i) {
    const std::int64_t count = h.count_at_index(i);
    if (count == 0) continue;
    if (h.highest_equivalent(h.value_from_index(i)) > bound_ns) break;
    below += count;
  }
  return static_cast<std::uint64_t>(below);
}

std::vector<std::uint64_t> classic_bucket_counts(const hdr::Histogram& h) {
  const std::vector<double>& bounds = classic_bucket_bounds();
  std::vector<std::uint64_t> out(bounds.size(), 0);
  // The indexes whose values all lie at or below a bound are a prefix of the counts (an index's highest equivalent
  // value grows with the index), ending after the index holding the bound if that index's top is the bound. Each
  // bound's count is the sum up to there, so one pass of plain sums serves every bound (the bounds ascend), with
  // no arithmetic per index (the per-index walk was most of a text scrape's cost).
  const std::int32_t used = h.used_length();
  std::int64_t below = 0;
  std::int32_t i = 0;
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    const auto bound_ns = static_cast<std::int64_t>(bounds[b] * 1e9);
    std::int32_t end = h.counts_index_for(bound_ns);
    if (end < h.counts_length() && h.highest_equivalent(h.value_from_index(end)) <= bound_ns) ++end;
    for (end = std::min(end, used); i < end; ++i) below += h.count_at_index(i);
    out[b] = static_cast<std::uint64_t>(below);
  }
  return out;
}

namespace {

std::string escape_label(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

// `{a="x",b="y"}` with `extra` (already formatted, e.g. `le="0.1"`) last.
std::string label_set(const MetricLabels& labels, const std::string& extra = {}) {
  std::string out = "{";
  for (const auto& [name, value] : labels) {
    if (out.size() > 1) out += ',';
    out += fmt::format("{}=\"{}\"", name, escape_label(value));
  }
  if (!extra.empty()) out += (out.size() > 1 ? "," : "") + extra;
  return out + "}";
}

const char* type_name(MetricType t) {
  switch (t) {
    case MetricType::counter:
      return "counter";
    case MetricType::gauge:
      return "gauge";
    case MetricType::histogram:
      return "histogram";
  }
  return "untyped";
}

}  // namespace

std::string render_families_text(const std::vector<MetricFamily>& families, bool openmetrics) {
  std::string out;
  for (const MetricFamily& f : families) {
    const bool strip = f.type == MetricType::counter && openmetrics && f.name.size() > 6 &&
                       f.name.compare(f.name.size() - 6, 6, "_total") == 0;
    const std::string fam = strip ? f.name.substr(0, f.name.size() - 6) : f.name;
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", fam, f.help, fam, type_name(f.type));
    for (const MetricSeries& s : f.series) {
      if (s.histogram == nullptr) {
        out += fmt::format("{}{} {}\n", f.name, label_set(s.labels), s.value);
        continue;
      }
      const hdr::Histogram& h = *s.histogram;
      const std::vector<std::uint64_t> counts = classic_bucket_counts(h);
      for (std::size_t k = 0; k < counts.size(); ++k) {
        out += fmt::format("{}_bucket{} {}\n", f.name,
                           label_set(s.labels, fmt::format("le=\"{}\"", classic_bucket_bounds()[k])), counts[k]);
      }
      out += fmt::format("{}_bucket{} {}\n", f.name, label_set(s.labels, "le=\"+Inf\""), h.total_count());
      out += fmt::format("{}_sum{} {}\n", f.name, label_set(s.labels),
                         h.mean() * static_cast<double>(h.total_count()) / 1e9);
      out += fmt::format("{}_count{} {}\n", f.name, label_set(s.labels), h.total_count());
    }
  }
  if (openmetrics) out += "# EOF\n";
  return out;
}

}  // namespace openloop::report
