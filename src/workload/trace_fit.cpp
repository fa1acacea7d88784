// A scenario file fitted to a trace (workload/trace_fit.h).
#include "workload/trace_fit.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "workload/rate_fit.h"

namespace openloop::workload {
namespace {

constexpr std::int64_t k_second_ns = 1'000'000'000;

bool is_placeholder(std::string_view segment) {
  return segment == "{n}" || segment == "{uuid}" || segment == "{hex}" || segment == "{id}";
}

// The path's segments after its leading '/' (normalise_path keeps every '/', so indices match).
std::vector<std::string_view> segments_of(std::string_view path) {
  std::vector<std::string_view> out;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (true) {
    const std::size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

// The value of query parameter `name` in `target`, if present.
std::optional<std::string_view> param_of(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string_view::npos ? "" : pair.substr(eq + 1);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

EndpointShape new_shape(std::string_view endpoint, const std::vector<std::string>& key_params) {
  EndpointShape e;
  const std::size_t space = endpoint.find(' ');
  e.method = std::string(endpoint.substr(0, space));
  e.path = std::string(endpoint.substr(space + 1));
  const auto segments = segments_of(e.path);
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (is_placeholder(segments[i])) e.slots.push_back(KeySlot{i, {}, {}, 0});
  for (const auto& name : key_params) e.slots.push_back(KeySlot{0, name, {}, 0});
  return e;
}

// Text safe in a plan's path: bytes past ASCII and braces (a template's delimiters) percent-encoded.
std::string path_literal(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80 || c == '{' || c == '}' || c == '"' || c == '\\') {
      out += fmt::format("%{:02X}", b);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// A name of letters, digits and `_` from `s`, at most 40 characters; `fallback` when nothing is left.
std::string identifier_from(std::string_view s, std::string_view fallback) {
  std::string out;
  for (const char c : s) {
    if (out.size() >= 40) break;
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!out.empty() && out.back() != '_') {
      out.push_back('_');
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())) != 0)
    out = std::string(fallback) + (out.empty() ? "" : "_" + out);
  return out;
}

std::string unique(std::string name, std::set<std::string>& used) {
  std::string candidate = name;
  for (int i = 2; used.count(candidate) > 0; ++i) candidate = fmt::format("{}_{}", name, i);
  used.insert(candidate);
  return candidate;
}

std::string yaml_quoted(std::string_view s) {
  return nlohmann::json(std::string(s)).dump();
}

// A rate with six significant digits in fixed notation (a sparse trace's 0.0000120/s too), at least three
// decimals.
std::string rate_text(double per_s) {
  const int decimals = per_s > 0 ? std::clamp(5 - static_cast<int>(std::floor(std::log10(per_s))), 3, 15) : 3;
  return fmt::format("{:.{}f}/s", per_s, decimals);
}

double seconds_into_second(Nanos t) {
  const std::int64_t ns = t.count();
  const std::int64_t sec = ns >= 0 ? ns / k_second_ns : -((-ns + k_second_ns - 1) / k_second_ns);
  return static_cast<double>(ns - sec * k_second_ns) / 1e9;
}

// The endpoints by records, most first (name order among equals).
std::vector<const std::pair<const std::string, EndpointShape>*> ranked_endpoints(const TraceFitData& data) {
  std::vector<const std::pair<const std::string, EndpointShape>*> ranked;
  for (const auto& entry : data.endpoints) ranked.push_back(&entry);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto* a, const auto* b) { return a->second.records > b->second.records; });
  return ranked;
}

std::uint64_t records_of(const KeySlot& slot) {
  std::uint64_t n = slot.unrecorded;
  for (const auto& [key, count] : slot.counts) n += count;
  return n;
}

}  // namespace

std::string place_of(const KeySlot& slot) {
  return slot.param.empty() ? fmt::format("segment {}", slot.segment + 1) : "parameter " + slot.param;
}

std::optional<ZipfFit> fit_slot(const KeySlot& slot) {
  std::vector<std::uint64_t> counts;
  counts.reserve(slot.counts.size());
  for (const auto& [key, n] : slot.counts) counts.push_back(n);
  return fit_zipf(counts);
}

nlohmann::json keys_json(const TraceFitData& data) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto* entry : ranked_endpoints(data)) {
    for (const KeySlot& slot : entry->second.slots) {
      if (slot.counts.empty()) continue;
      nlohmann::json zipf = nullptr;
      if (const auto fit = fit_slot(slot)) {
        zipf = {{"n", fit->n},
                {"s", fit->s},
                {"s_at_bound", fit->s_at_bound},
                {"ks_distance", fit->ks_distance},
                {"top_1pct_share", fit->top_percent_share}};
      }
      out.push_back({{"endpoint", entry->first},
                     {"place", place_of(slot)},
                     {"records", records_of(slot)},
                     {"distinct_keys", slot.counts.size()},
                     {"unrecorded", slot.unrecorded},
                     {"zipf", zipf}});
    }
  }
  return out;
}

std::string render_keys_text(const TraceFitData& data, std::size_t rows) {
  std::string out;
  std::size_t shown = 0, places = 0;
  for (const auto* entry : ranked_endpoints(data)) {
    for (const KeySlot& slot : entry->second.slots) {
      if (slot.counts.empty()) continue;
      ++places;
      if (shown >= rows) continue;
      ++shown;
      const auto fit = fit_slot(slot);
      out += fmt::format("    {} {}: {} keys over {} records", entry->first, place_of(slot),
                         slot.counts.size(), records_of(slot));
      if (fit) {
        out += fmt::format(", zipf s {:.3f} (KS distance {:.3f}; the hottest 1 % take {:.1f} %){}", fit->s,
                           fit->ks_distance, 100 * fit->top_percent_share,
                           slot.unrecorded > 0 ? "; N at least" : "");
      }
      out += "\n";
    }
  }
  if (places == 0) return "  keys        none (no path segment is an id)\n";
  out = "  keys (ids in paths, --key-param; Zipf by maximum likelihood over the ranked counts)\n" + out;
  if (places > shown) out += fmt::format("    ... {} places in all\n", places);
  return out;
}

Result<TraceFitData> collect_fit_data(TraceReader& reader, const std::vector<std::string>& key_params) {
  TraceFitData data;
  TraceRecord r;
  std::string endpoint;
  while (OPENLOOP_TRY(reader.next(r))) {
    add_to_profile(data.profile, r, endpoint);
    auto it = data.endpoints.find(endpoint);
    if (it == data.endpoints.end()) {
      if (data.endpoints.size() >= k_max_endpoints) continue;
      it = data.endpoints.emplace(endpoint, new_shape(endpoint, key_params)).first;
    }
    EndpointShape& e = it->second;
    ++e.records;
    e.body_bytes += r.body.size();
    if (e.slots.empty()) continue;
    const std::string_view target = r.target;
    const auto segments = segments_of(target.substr(0, target.find('?')));
    for (KeySlot& slot : e.slots) {
      std::string_view key;
      if (slot.param.empty()) {
        if (slot.segment >= segments.size()) continue;
        key = segments[slot.segment];
      } else {
        const auto value = param_of(target, slot.param);
        if (!value) continue;
        key = *value;
      }
      if (auto k = slot.counts.find(std::string(key)); k != slot.counts.end()) {
        ++k->second;
      } else if (data.distinct_keys < k_max_fit_keys) {
        slot.counts.emplace(std::string(key), 1);
        ++data.distinct_keys;
      } else {
        ++slot.unrecorded;
      }
    }
  }
  data.profile.spreads_seconds = reader.spreads_seconds();
  return data;
}

Result<FittedPlan> fit_plan(const TraceFitData& data, const FitOptions& o) {
  const TraceProfile& p = data.profile;
  if (p.records < 2 || p.last <= p.first) {
    return usage_error(
        fmt::format("{}: {} records over {:.3f} s: a fit needs at least two records at different times",
                    o.source, p.records, p.span_s()));
  }
  FittedPlan plan;
  auto& say = plan.summary;
  // The rate.
  const auto series = p.rate_series();
  const double first_bin = series.size() == 1 ? p.span_s() : 1.0 - seconds_into_second(p.first);
  const RateFit rate = fit_rate(series, first_bin, seconds_into_second(p.last), o.window_s);
  if (rate.varies) {
    say.push_back(fmt::format(
        "rate: varies (a {:.0f} s window {:.0f} % from the mean {:.2f}/s): stages through the means of {} "
        "windows, linear between their midpoints",
        rate.window_s, 100 * rate.worst_deviation, rate.mean_rate, rate.windows.size()));
  } else {
    say.push_back(fmt::format(
        "rate: constant {:.2f}/s over {:.1f} s (every {:.0f} s window within {:.0f} % of the mean, as a "
        "constant rate allows)",
        rate.mean_rate, rate.span_s, rate.window_s, 100 * rate.worst_deviation));
  }
  if (o.rate_scale != 1) say.push_back(fmt::format("rates scaled by {:g} (--rate-scale)", o.rate_scale));
  if (!rate.dispersion_known) {
    say.push_back("arrivals: poisson (the trace is too short for the test: fewer than three whole seconds)");
  } else {
    say.push_back(fmt::format(
        "arrivals: {} (index of dispersion {:.2f} of the counts per second, slow changes of rate removed: "
        "~1 Poisson, < 0.5 paced){}",
        rate.poisson ? "poisson" : "constant", rate.dispersion,
        rate.dispersion > 2 ? "; the trace is burstier than Poisson: the plan under-states its bursts" : ""));
  }
  // The mix.
  const auto ranked = ranked_endpoints(data);
  const std::size_t kept = std::min(std::max<std::size_t>(o.top, 1), ranked.size());
  std::uint64_t kept_records = 0;
  for (std::size_t i = 0; i < kept; ++i) kept_records += ranked[i]->second.records;
  const double dropped_share = 1.0 - static_cast<double>(kept_records) / static_cast<double>(p.records);
  say.push_back(fmt::format(
      "mix: the top {} of {} endpoints ({:.1f} % of records){}", kept,
      ranked.size() + (p.other_endpoints > 0 ? 1 : 0), 100 * (1 - dropped_share),
      dropped_share > 0
          ? fmt::format(
                "; the other {:.1f} % dropped, the rate kept whole (spread over the kept ones in proportion)",
                100 * dropped_share)
          : ""));
  // The requests and their keys.
  std::set<std::string> request_names, variable_names;
  std::string variables, requests, mix;
  bool capped_body = false;
  for (std::size_t i = 0; i < kept; ++i) {
    const auto& [endpoint, e] = *ranked[i];
    const auto segments = segments_of(e.path);
    std::vector<std::string> parts(segments.begin(), segments.end());
    for (auto& part : parts) part = path_literal(part);
    std::vector<std::string> params;
    for (const KeySlot& slot : e.slots) {
      const auto zipf = fit_slot(slot);
      std::string value;
      if (!zipf) {
        if (slot.counts.empty()) {
          if (slot.param.empty())
            value = "1";  // every record of the endpoint lacked the segment: unseen
          else
            continue;  // the parameter never appeared on this endpoint
        } else {
          value = path_literal(slot.counts.begin()->first);
        }
      } else {
        const std::string_view before =
            slot.param.empty() ? (slot.segment > 0 ? segments[slot.segment - 1] : std::string_view("key"))
                               : std::string_view(slot.param);
        const std::string name = unique(identifier_from(before, "key") + "_key", variable_names);
        const std::string where = place_of(slot);
        variables += fmt::format(
            "  {}: zipf({}, {:.3f})  # {} {}: KS distance {:.3f}, the hottest 1 % of keys "
            "take {:.1f} %{}\n",
            name, zipf->n, zipf->s, endpoint, where, zipf->ks_distance, 100 * zipf->top_percent_share,
            slot.unrecorded > 0 ? ", N at least" : "");
        say.push_back(fmt::format(
            "key {} {}: zipf({}, {:.3f}) by maximum likelihood over {} records (KS distance {:.3f}; the "
            "hottest "
            "1 % of keys take {:.1f} %){}{}",
            endpoint, where, zipf->n, zipf->s, zipf->observations, zipf->ks_distance,
            100 * zipf->top_percent_share, zipf->s_at_bound ? "; s at the edge of the range searched" : "",
            slot.unrecorded > 0 ? fmt::format("; {} records of keys past {} kept: N is at least this",
                                              slot.unrecorded, k_max_fit_keys)
                                : ""));
        value = "{{" + name + "}}";
      }
      if (slot.param.empty()) {
        parts[slot.segment] = value;
      } else {
        params.push_back(path_literal(slot.param) + "=" + value);
      }
    }
    std::string path = "/";
    for (std::size_t k = 0; k < parts.size(); ++k) path += (k > 0 ? "/" : "") + parts[k];
    for (std::size_t k = 0; k < params.size(); ++k) path += (k == 0 ? "?" : "&") + params[k];
    std::string literal_path;
    for (const auto& s : segments) literal_path += "_" + std::string(s);
    const std::string name =
        unique(identifier_from(e.method + literal_path, "request").substr(0, 48), request_names);
    requests += fmt::format("  {}:  # {}: {} records\n    method: {}\n    path: {}\n", name, endpoint,
                            e.records, e.method, yaml_quoted(path));
    const std::uint64_t mean_body = (e.body_bytes + e.records / 2) / e.records;
    if (mean_body > 0) {
      capped_body = capped_body || mean_body > o.max_body;
      requests += fmt::format("    body: {}  # the mean size of the recorded bodies ({} B)\n",
                              yaml_quoted(std::string(std::min<std::uint64_t>(mean_body, o.max_body), 'x')),
                              mean_body);
    }
    mix += fmt::format("      {}: {}\n", name, e.records);
  }
  if (capped_body) say.push_back(fmt::format("request bodies capped at {} B", o.max_body));
  say.push_back(
      "not reproduced: headers, bodies' content (sizes only), query parameters other than --key-param");
  // The file.
  std::string& y = plan.yaml;
  y += fmt::format("# Fitted by `openloop trace fit` to {}: {} records over {:.3f} s.\n", o.source, p.records,
                   p.span_s());
  for (const auto& line : say) y += "# " + line + "\n";
  y += fmt::format("target: {}\nseed: 1\n", yaml_quoted(o.target));
  if (!variables.empty()) y += "variables:\n" + variables;
  y += "requests:\n" + requests;
  y += fmt::format("scenarios:\n  fitted:\n    model: open\n    arrival: {}\n",
                   rate.poisson ? "poisson" : "constant");
  if (rate.varies) {
    // Piecewise linear through each window's mean rate at its midpoint, held flat before the first and after
    // the last: a linear ramp is reproduced exactly, a step is smoothed over one window.
    y += fmt::format("    start_rate: {}\n    stages:\n",
                     rate_text(rate.windows.front().rate() * o.rate_scale));
    std::int64_t at_ms = 0;
    const auto stage = [&](double until_s, double per_s) {
      const auto until_ms = static_cast<std::int64_t>(std::llround(until_s * 1000));
      y += fmt::format("      - {{duration: {}ms, target: {}}}\n",
                       std::max<std::int64_t>(0, until_ms - at_ms), rate_text(per_s * o.rate_scale));
      at_ms = std::max(at_ms, until_ms);
    };
    for (const RateWindow& w : rate.windows) stage(w.start_s + w.length_s / 2, w.rate());
    stage(rate.span_s, rate.windows.back().rate());
  } else {
    y += fmt::format("    rate: {}\n    duration: {}ms\n", rate_text(rate.mean_rate * o.rate_scale),
                     std::max<long long>(1, std::llround(rate.span_s * 1000)));
  }
  if (kept == 1) {
    y += "    request: " + *request_names.begin() + "\n";
  } else {
    y += "    mix:  # weights: the records of each endpoint\n" + mix;
  }
  return plan;
}

}  // namespace openloop::workload
