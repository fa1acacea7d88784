// Piecewise-linear rate profiles: construction, k6-style stage parsing, Λ and its closed-form inverse.
#include "workload/rate_profile.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_stages_form =
    "stages are duration:rate items separated by commas, e.g. 30s:100/s,1m:500/s,30s:0/s";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

Nanos::rep round_ns(double ns) {
  return static_cast<Nanos::rep>(ns + 0.5);
}

// One "duration:rate" item; `position` is 1-based. Errors name the flag, the item and the accepted form.
Result<Stage> parse_stage_item(std::string_view item, std::size_t position, std::string_view what) {
  auto bad = [&](std::string_view reason) {
    return usage_error(
        fmt::format("{}: item {} \"{}\": {}; {}", what, position, item, reason, k_stages_form));
  };
  const std::size_t colon = item.find(':');
  if (item.empty()) return bad("empty item");
  if (colon == std::string_view::npos) return bad("missing ':' between duration and rate");
  auto duration = parse_duration(item.substr(0, colon), "duration");
  if (!duration) return bad(duration.error().message);
  auto rate = parse_rate(item.substr(colon + 1), "rate");
  if (!rate) return bad(rate.error().message);
  return Stage{*duration, *rate};
}

}  // namespace

RateProfile RateProfile::constant(double rate, Nanos duration) {
  return from_stages({Stage{duration, rate}}, rate);
}

Result<RateProfile> RateProfile::parse_stages(std::string_view text, std::string_view what,
                                              double start_rate) {
  if (trim(text).empty()) return usage_error(fmt::format("{}: no stages given; {}", what, k_stages_form));
  std::vector<Stage> stages;
  Nanos total{0};
  std::size_t position = 0;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string_view item = trim(text.substr(begin, comma - begin));
    ++position;
    const Stage stage = OPENLOOP_TRY(parse_stage_item(item, position, what));
    if (stage.duration > Nanos::max() - total) {
      return usage_error(fmt::format("{}: item {} \"{}\": stages add up to more than ~292 years; {}", what,
                                     position, item, k_stages_form));
    }
    total += stage.duration;
    stages.push_back(stage);
    begin = comma + 1;
  }
  if (total == Nanos(0)) {
    return usage_error(
        fmt::format("{}: \"{}\": the stages add up to zero duration; {}", what, text, k_stages_form));
  }
  return from_stages(std::move(stages), start_rate);
}

RateProfile RateProfile::from_stages(std::vector<Stage> stages, double start_rate) {
  assert(std::isfinite(start_rate) && start_rate >= 0.0);
  RateProfile p;
  p.m_start_rate = start_rate;
  double previous = start_rate;
  Nanos t{0};
  double cum = 0.0;
  for (const Stage& stage : stages) {
    assert(stage.duration >= Nanos(0));
    assert(std::isfinite(stage.target_rate) && stage.target_rate >= 0.0);
    if (stage.duration > Nanos(0)) {
      const bool extends_constant = !p.m_segments.empty() && p.m_segments.back().half_slope == 0.0 &&
                                    p.m_segments.back().rate1 == previous && stage.target_rate == previous;
      if (extends_constant) {
        // Equal-rate neighbours merge so "30s:100/s,1m:100/s" keeps the single-constant shortcut.
        Segment& back = p.m_segments.back();
        back.length += stage.duration;
        back.seconds = to_seconds(back.length);
        back.cum_end = back.cum_start + back.rate0 * back.seconds;
      } else {
        const double seconds = to_seconds(stage.duration);
        p.m_segments.push_back(Segment{t, stage.duration, seconds, previous, stage.target_rate,
                                       (stage.target_rate - previous) / (2.0 * seconds), cum,
                                       cum + seconds * (previous + stage.target_rate) / 2.0});
      }
      cum = p.m_segments.back().cum_end;
      p.m_max_rate = std::max({p.m_max_rate, previous, stage.target_rate});
    }
    assert(stage.duration <= Nanos::max() - t);
    t += stage.duration;
    previous = stage.target_rate;
  }
  p.m_stages = std::move(stages);
  p.m_duration = t;
  p.m_total = cum;
  if (p.m_segments.size() == 1 && p.m_segments.front().half_slope == 0.0 &&
      p.m_segments.front().rate0 > 0.0) {
    p.m_constant_ns_per_arrival = 1e9 / p.m_segments.front().rate0;
  }
  return p;
}

std::size_t RateProfile::segment_at(Nanos t) const {
  // Segments tile [0, duration) contiguously; the caller has checked 0 ≤ t < duration.
  const auto it = std::upper_bound(m_segments.begin(), m_segments.end(), t,
                                   [](Nanos value, const Segment& seg) { return value < seg.start; });
  return static_cast<std::size_t>(it - m_segments.begin()) - 1;
}

std::size_t RateProfile::segment_for(double x) const {
  // First segment whose Λ range extends beyond x: skips zero-rate stretches that end at level x.
  const auto it = std::upper_bound(m_segments.begin(), m_segments.end(), x,
                                   [](double value, const Segment& seg) { return value < seg.cum_end; });
  return static_cast<std::size_t>(it - m_segments.begin());
}

double RateProfile::rate_at(Nanos t) const {
  if (t < Nanos(0) || t >= m_duration) return 0.0;
  const Segment& seg = m_segments[segment_at(t)];
  return seg.rate0 + 2.0 * seg.half_slope * to_seconds(t - seg.start);
}

double RateProfile::mean_rate(Nanos from, Nanos to) const {
  if (to <= from) return rate_at(from);
  return (cumulative(to) - cumulative(from)) / to_seconds(to - from);
}

double RateProfile::cumulative(Nanos t) const {
  if (t <= Nanos(0)) return 0.0;
  if (t >= m_duration) return m_total;
  const Segment& seg = m_segments[segment_at(t)];
  const double tau = to_seconds(t - seg.start);
  return std::min(seg.cum_start + tau * (seg.rate0 + seg.half_slope * tau), seg.cum_end);
}

Nanos RateProfile::inverse_in(const Segment& seg, double x) const {
  const double y = x - seg.cum_start;
  if (y <= 0.0) return seg.start;
  double tau = 0.0;
  if (seg.half_slope == 0.0) {
    tau = y / seg.rate0;
  } else {
    // Root of half_slope·τ² + rate0·τ − y = 0 in the form without cancellation: 2y / (b + √(b² + 4ay)).
    // The discriminant is λ(τ)² ≥ 0 in exact arithmetic; clamp the rounding at a ramp's end down to 0.
    const double disc = std::max(seg.rate0 * seg.rate0 + 4.0 * seg.half_slope * y, 0.0);
    tau = 2.0 * y / (seg.rate0 + std::sqrt(disc));
  }
  return seg.start + Nanos(std::min(round_ns(tau * 1e9), seg.length.count()));
}

Nanos RateProfile::inverse(double x) const {
  x = std::max(x, 0.0);  // below the contract's range: the start (NaN stays NaN and maps to Nanos::max())
  if (m_constant_ns_per_arrival > 0.0) {
    if (!(x <= m_total)) return Nanos::max();
    return Nanos(round_ns(x * m_constant_ns_per_arrival));
  }
  if (x < m_total) return inverse_in(m_segments[segment_for(x)], x);
  if (!(x == m_total)) return Nanos::max();
  // x = Λ(duration): the end of the last stretch with a positive rate (0 when the profile offers nothing).
  for (auto it = m_segments.rbegin(); it != m_segments.rend(); ++it) {
    if (it->cum_end > it->cum_start) return it->start + it->length;
  }
  return Nanos(0);
}

Nanos RateProfile::inverse(double x, std::size_t& cursor) const {
  x = std::max(x, 0.0);
  if (m_constant_ns_per_arrival > 0.0 || !(x < m_total)) return inverse(x);
  if (cursor >= m_segments.size() || x < m_segments[cursor].cum_start) {
    cursor = segment_for(x);
  } else {
    // Every segment before the cursor ends at or below x (cum_end is non-decreasing), so the forward scan
    // lands on the same segment as segment_for(x) and the result is identical.
    while (m_segments[cursor].cum_end <= x) ++cursor;
  }
  return inverse_in(m_segments[cursor], x);
}

}  // namespace openloop::workload
