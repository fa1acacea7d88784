// A trace's shape read once (workload/trace_inspect.h).
#include "workload/trace_inspect.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

constexpr std::int64_t k_second = 1'000'000'000;

std::int64_t second_of(Nanos t) {
  const std::int64_t ns = t.count();
  return ns >= 0 ? ns / k_second : -((-ns + k_second - 1) / k_second);
}

bool all_of(std::string_view s, int (*pred)(int)) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [&](char c) { return pred(static_cast<unsigned char>(c)) != 0; });
}

bool is_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (s[i] == '-')) return false;
    if (!dash && std::isxdigit(static_cast<unsigned char>(s[i])) == 0) return false;
  }
  return true;
}

std::string_view placeholder(std::string_view segment) {
  if (all_of(segment, [](int c) { return std::isdigit(c); })) return "{n}";
  if (is_uuid(segment)) return "{uuid}";
  const bool has_digit = std::any_of(segment.begin(), segment.end(),
                                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  if (segment.size() >= 16 && has_digit && all_of(segment, [](int c) { return std::isxdigit(c); }))
    return "{hex}";
  if (segment.size() >= 20 && has_digit &&
      all_of(segment, [](int c) { return std::isalnum(c) != 0 || c == '-' || c == '_' ? 1 : 0; }))
    return "{id}";
  return {};
}

nlohmann::json sizes_json(const SizeSpread& s) {
  if (s.count == 0) return nullptr;
  return {{"count", s.count},
          {"mean_bytes", static_cast<double>(s.total) / static_cast<double>(s.count)},
          {"p50_at_most_bytes", s.quantile_bound(0.5)},
          {"p99_at_most_bytes", s.quantile_bound(0.99)},
          {"max_bytes", s.max}};
}

std::string sizes_text(const SizeSpread& s) {
  if (s.count == 0) return "not logged";
  return fmt::format("{} records, mean {:.0f} B, p50 ≤ {} B, p99 ≤ {} B, max {} B", s.count,
                     static_cast<double>(s.total) / static_cast<double>(s.count), s.quantile_bound(0.5),
                     s.quantile_bound(0.99), s.max);
}

// The endpoints by count, most first (name order among equals).
std::vector<std::pair<std::string, std::uint64_t>> ranked(const std::map<std::string, std::uint64_t>& m) {
  std::vector<std::pair<std::string, std::uint64_t>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

}  // namespace

void SizeSpread::add(std::uint64_t bytes) {
  ++count;
  total += bytes;
  max = std::max(max, bytes);
  ++buckets[static_cast<std::size_t>(std::bit_width(bytes))];
}

std::uint64_t SizeSpread::quantile_bound(double q) const {
  if (count == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count)));
  std::uint64_t seen = 0;
  for (std::size_t k = 0; k < buckets.size(); ++k) {
    seen += buckets[k];
    if (seen >= rank && buckets[k] > 0) {
      if (k == 0) return 0;
      const std::uint64_t upper = k >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
      return std::min(max, upper);
    }
  }
  return max;
}

double TraceProfile::span_s() const {
  return std::chrono::duration<double>(last - first).count();
}

std::vector<std::uint64_t> TraceProfile::rate_series() const {
  std::vector<std::uint64_t> out;
  if (per_second.empty()) return out;
  const std::int64_t from = per_second.begin()->first;
  const std::int64_t to = per_second.rbegin()->first;
  out.assign(static_cast<std::size_t>(
                 std::min<std::int64_t>(to - from + 1, static_cast<std::int64_t>(k_max_seconds))),
             0);
  for (const auto& [second, n] : per_second) {
    const auto i = static_cast<std::size_t>(second - from);
    if (i < out.size()) out[i] = n;
  }
  return out;
}

double TraceProfile::dispersion() const {
  const auto series = rate_series();
  if (series.size() < 2) return 0;
  double sum = 0, squares = 0;
  for (auto n : series) {
    sum += static_cast<double>(n);
    squares += static_cast<double>(n) * static_cast<double>(n);
  }
  const double count = static_cast<double>(series.size());
  const double mean = sum / count;
  if (mean <= 0) return 0;
  const double variance = (squares - count * mean * mean) / (count - 1);
  return variance / mean;
}

std::string normalise_path(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  std::string out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      out.push_back('/');
      ++i;
      continue;
    }
    const std::size_t end = std::min(path.find('/', i), path.size());
    const std::string_view segment = path.substr(i, end - i);
    const std::string_view p = placeholder(segment);
    out += p.empty() ? segment : p;
    i = end;
  }
  return out.empty() ? "/" : out;
}

void add_to_profile(TraceProfile& p, const TraceRecord& r, std::string& key) {
  if (p.records == 0) {
    p.first = p.last = r.t;
  } else {
    p.first = std::min(p.first, r.t);
    p.last = std::max(p.last, r.t);
  }
  ++p.records;
  const std::int64_t second = second_of(r.t);
  if (auto it = p.per_second.find(second); it != p.per_second.end()) {
    ++it->second;
  } else if (p.per_second.size() < k_max_seconds) {
    p.per_second.emplace(second, 1);
  } else {
    ++p.seconds_beyond;
  }
  key = r.method + " " + normalise_path(r.target);
  if (auto it = p.endpoints.find(key); it != p.endpoints.end()) {
    ++it->second;
  } else if (p.endpoints.size() < k_max_endpoints) {
    p.endpoints.emplace(key, 1);
  } else {
    ++p.other_endpoints;
  }
  p.request_bodies.add(r.body.size());
  if (r.response_bytes >= 0) p.response_bodies.add(static_cast<std::uint64_t>(r.response_bytes));
  if (r.status > 0) ++p.statuses[r.status];
}

Result<TraceProfile> inspect_trace(TraceReader& reader) {
  TraceProfile p;
  TraceRecord r;
  std::string key;
  while (OPENLOOP_TRY(reader.next(r))) add_to_profile(p, r, key);
  p.spreads_seconds = reader.spreads_seconds();
  return p;
}

std::string render_profile_text(const TraceProfile& p, std::string_view name, std::size_t rows) {
  std::string out = fmt::format("trace {}\n", name);
  if (p.records == 0) return out + "  no records\n";
  const auto series = p.rate_series();
  const double span = p.span_s();
  out += fmt::format("  records     {}\n  span        {:.3f} s\n  mean rate   {:.2f}/s\n", p.records, span,
                     span > 0 ? static_cast<double>(p.records) / span : 0.0);
  out += fmt::format(
      "  dispersion  {:.2f} (variance / mean of records per second over {} s: ~1 Poisson, <1 "
      "paced, >1 bursty)\n",
      p.dispersion(), series.size());
  if (p.spreads_seconds) out += "  stamps      whole seconds, spread within their second by the seed\n";
  // The rate over time, in at most `rows` rows of equal width.
  const std::size_t width =
      std::max<std::size_t>(1, (series.size() + rows - 1) / std::max<std::size_t>(rows, 1));
  std::vector<double> rates;
  for (std::size_t i = 0; i < series.size(); i += width) {
    std::uint64_t n = 0;
    const std::size_t end = std::min(series.size(), i + width);
    for (std::size_t k = i; k < end; ++k) n += series[k];
    rates.push_back(static_cast<double>(n) / static_cast<double>(end - i));
  }
  const double top = *std::max_element(rates.begin(), rates.end());
  out += fmt::format("  rate over time (records/s, {} s a row)\n", width);
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const auto bar = static_cast<std::size_t>(top > 0 ? std::lround(rates[i] / top * 40) : 0);
    out += fmt::format("    {:>8} s {:>10.1f} {}\n", i * width, rates[i], std::string(bar, '#'));
  }
  out += "  endpoints (method and path, ids as placeholders)\n";
  const auto endpoints = ranked(p.endpoints);
  for (std::size_t i = 0; i < endpoints.size() && i < 20; ++i) {
    out += fmt::format("    {:>6.2f} %  {:>8}  {}\n",
                       100.0 * static_cast<double>(endpoints[i].second) / static_cast<double>(p.records),
                       endpoints[i].second, endpoints[i].first);
  }
  if (endpoints.size() > 20) out += fmt::format("    ... {} endpoints in all\n", endpoints.size());
  if (p.other_endpoints > 0)
    out += fmt::format("    {} records of endpoints past the first {}\n", p.other_endpoints, k_max_endpoints);
  out += fmt::format("  request bodies   {}\n  response bodies  {}\n", sizes_text(p.request_bodies),
                     sizes_text(p.response_bodies));
  if (p.statuses.empty()) {
    out += "  statuses    not logged\n";
  } else {
    out += "  statuses   ";
    for (const auto& [status, n] : p.statuses) out += fmt::format(" {} ×{}", status, n);
    out += "\n";
  }
  return out;
}

nlohmann::json profile_json(const TraceProfile& p, std::string_view name) {
  nlohmann::json endpoints = nlohmann::json::array();
  for (const auto& [endpoint, n] : ranked(p.endpoints))
    endpoints.push_back({{"endpoint", endpoint}, {"records", n}});
  nlohmann::json statuses = nlohmann::json::object();
  for (const auto& [status, n] : p.statuses) statuses[std::to_string(status)] = n;
  const double span = p.span_s();
  return {{"schema", "openloop.trace-inspect/1"},
          {"file", std::string(name)},
          {"records", p.records},
          {"span_s", span},
          {"mean_rate_per_s", span > 0 ? static_cast<double>(p.records) / span : 0.0},
          {"dispersion", p.dispersion()},
          {"seconds_spread", p.spreads_seconds},
          {"rate_per_second", p.rate_series()},
          {"records_beyond_series", p.seconds_beyond},
          {"endpoints", endpoints},
          {"other_endpoint_records", p.other_endpoints},
          {"request_bodies", sizes_json(p.request_bodies)},
          {"response_bodies", sizes_json(p.response_bodies)},
          {"statuses", statuses}};
}

}  // namespace openloop::workload
