// Stall windows: parsing and the two queries the service model needs (am I stalled, when is the next stall).
#include "lab/stall_schedule.h"

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::lab {
namespace {

tl::unexpected<Error> bad(std::string_view what, std::string_view text, std::string_view accepted) {
  return usage_error(fmt::format("{}: \"{}\" is not a stall; {}", what, text, accepted));
}

constexpr std::string_view k_periodic_forms =
    "use LEN/PERIOD with LEN < PERIOD, e.g. 500ms/2s (or 0 for none)";
constexpr std::string_view k_once_forms = "use AT+LEN, e.g. 10s+3s (a stall from t=10s lasting 3s)";

}  // namespace

Result<std::optional<StallWindow>> StallSchedule::parse_periodic(std::string_view text,
                                                                 std::string_view what) {
  if (text.empty() || text == "0" || text == "none") return std::optional<StallWindow>{};
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return bad(what, text, k_periodic_forms);
  auto len = parse_duration(text.substr(0, slash), what);
  auto period = parse_duration(text.substr(slash + 1), what);
  if (!len || !period || *period <= Nanos(0) || *len >= *period) return bad(what, text, k_periodic_forms);
  if (*len == Nanos(0)) return std::optional<StallWindow>{};
  return std::optional<StallWindow>{StallWindow{*len, *period}};
}

Result<StallWindow> StallSchedule::parse_once(std::string_view text, std::string_view what) {
  const auto plus = text.find('+');
  if (plus == std::string_view::npos) return bad(what, text, k_once_forms);
  auto at = parse_duration(text.substr(0, plus), what);
  auto len = parse_duration(text.substr(plus + 1), what);
  if (!at || !len || *len <= Nanos(0)) return bad(what, text, k_once_forms);
  return StallWindow{*at, *at + *len};
}

std::optional<StallWindow> StallSchedule::raw_at(Nanos t) const {
  std::optional<StallWindow> best;
  auto consider = [&](StallWindow w) {
    if (t >= w.start && t < w.end && (!best || w.end > best->end)) best = w;
  };
  if (m_periodic) {
    const Nanos length = m_periodic->start;
    const Nanos period = m_periodic->end;
    const auto n = t / period;
    if (n >= 1) consider(StallWindow{n * period, n * period + length});
  }
  for (const StallWindow& w : m_once) consider(w);
  return best;
}

std::optional<StallWindow> StallSchedule::stall_at(Nanos t) const {
  auto w = raw_at(t);
  if (!w) return w;
  // Extend through windows that overlap or touch the end (bounded: each step moves past one window).
  for (int i = 0; i < 1000; ++i) {
    auto next = raw_at(w->end);
    if (!next || next->end <= w->end) break;
    w->end = next->end;
  }
  return w;
}

std::optional<Nanos> StallSchedule::next_start_after(Nanos t) const {
  std::optional<Nanos> best;
  auto consider = [&](Nanos s) {
    if (s > t && (!best || s < *best)) best = s;
  };
  if (m_periodic) {
    const Nanos period = m_periodic->end;
    consider((t / period + 1) * period);
  }
  for (const StallWindow& w : m_once) consider(w.start);
  return best;
}

std::string StallSchedule::periodic_text() const {
  if (!m_periodic) return "";
  return fmt::format("{}/{}", format_duration(m_periodic->start), format_duration(m_periodic->end));
}

std::vector<std::string> StallSchedule::once_texts() const {
  std::vector<std::string> out;
  for (const StallWindow& w : m_once) {
    out.push_back(fmt::format("{}+{}", format_duration(w.start), format_duration(w.end - w.start)));
  }
  return out;
}

}  // namespace openloop::lab
