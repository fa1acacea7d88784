// Live view text: derived only from finalized intervals (exact numbers), never from guesses about the
// present.
#include "report/live_view.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.h"
#include "results/judging/verdict.h"

namespace openloop::report {
namespace {

std::string seconds(Nanos d) {
  return fmt::format("{}s", std::chrono::duration_cast<std::chrono::seconds>(d).count());
}

std::string bar(double fraction, int width) {
  const int filled = std::clamp(static_cast<int>(fraction * width + 0.5), 0, width);
  return "[" + std::string(static_cast<std::size_t>(filled), '#') +
         std::string(static_cast<std::size_t>(width - filled), '.') + "]";
}

double pct(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

std::string fit_columns(const std::string& text, std::size_t width) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (++columns > width) {
      // Step back to leave room for the ellipsis.
      std::size_t cut = i;
      do {
        --cut;
      } while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80);
      return width == 0 ? std::string() : text.substr(0, cut) + "…";
    }
  }
  return text;
}

void LiveView::update(const results::RunResults& so_far) {
  m_intervals = so_far.intervals.size();
  m_totals = so_far.totals;
  if (!so_far.intervals.empty()) {
    const auto& last = so_far.intervals.back();
    m_last_start_s = last.start_s;
    m_last_length_s = last.length_s;
    m_last = last.counters;
    m_last_p99_ns = last.response_time.p99;
    m_last_count = last.response_time.count;
  }
  m_problems.clear();
  const auto& c = m_totals;
  if (!m_plan.open || c.intended == 0) return;
  const results::VerdictBounds bounds;
  const double intended = static_cast<double>(c.intended);
  if (static_cast<double>(c.dropped) > bounds.max_dropped_fraction * intended) {
    m_problems.push_back(fmt::format("dropped {:.2f}% > {:.0f}%", pct(c.dropped, c.intended),
                                     100 * bounds.max_dropped_fraction));
  }
  if (static_cast<double>(c.sent) < bounds.min_sent_fraction * intended) {
    m_problems.push_back(
        fmt::format("sent {:.2f}% < {:.0f}%", pct(c.sent, c.intended), 100 * bounds.min_sent_fraction));
  }
  const double measured_s = m_last_start_s + m_last_length_s;
  if (so_far.send_lateness.total_count() > 0 && measured_s > 0) {
    const double gap_ms = 1000.0 * measured_s / intended;
    const double bound_ms = std::max(bounds.lateness_floor_ms, bounds.lateness_gap_fraction * gap_ms);
    const double p99_ms = static_cast<double>(so_far.send_lateness.value_at_percentile(99)) / 1e6;
    if (p99_ms > bound_ms)
      m_problems.push_back(fmt::format("send lateness p99 {} > {}",
                                       format_duration(Nanos(std::llround(p99_ms * 1e6))),
                                       format_duration(Nanos(std::llround(bound_ms * 1e6)))));
  }
}

std::string LiveView::verdict_so_far() const {
  if (m_intervals == 0) return "verdict: waiting for the first second to finish";
  if (!m_plan.open) return "CLOSED model: no schedule, so no drop or lateness verdict";
  if (m_problems.empty()) return "VALID so far";
  std::string out = "INVALID so far: ";
  for (std::size_t i = 0; i < m_problems.size(); ++i) out += (i ? "; " : "") + m_problems[i];
  return out;
}

std::string LiveView::prefix() const { return m_plan.label.empty() ? "" : m_plan.label + "  "; }

std::string LiveView::progress(Nanos elapsed) const {
  const Nanos total = m_plan.warmup + m_plan.duration;
  const double fraction = total.count() > 0 ? std::min(1.0, to_seconds(elapsed) / to_seconds(total)) : 0.0;
  if (elapsed < m_plan.warmup) {
    return fmt::format("warm-up {} / {} {}", seconds(elapsed), seconds(m_plan.warmup), bar(fraction, 20));
  }
  return fmt::format("{} / {} {}", seconds(elapsed - m_plan.warmup), seconds(m_plan.duration),
                     bar(fraction, 20));
}

std::string LiveView::latest() const {
  if (m_intervals == 0) return "no measured second has finished yet";
  const auto& c = m_last;
  const double len = m_last_length_s > 0 ? m_last_length_s : 1.0;
  // The second by its span ("11–12s" of measurement): "second 11" beside "12s / 30s" read as a second behind.
  std::string out =
      fmt::format("{:g}–{:g}s: offered {:.1f}/s  sent {:.1f}/s  p99 {}", m_last_start_s, m_last_start_s + len,
                  static_cast<double>(c.intended) / len, static_cast<double>(c.sent) / len,
                  m_last_count > 0 ? format_duration(Nanos(m_last_p99_ns)) : "–");
  // Retries: attempts per logical request sent (shown once any interval retried).
  if (m_totals.retries > 0) out += fmt::format("  amplification {:.2f}", c.amplification());
  return out;
}

std::string LiveView::totals() const {
  const auto& c = m_totals;
  std::string out = fmt::format("dropped {} ({:.2f}%)  timeouts {}  errors {}", c.dropped,
                                pct(c.dropped, c.intended), c.timeouts, c.errors_total());
  // Arrivals queued for a free connection or stream (--on-saturation queue): shown once any has waited.
  if (c.slot_waits > 0)
    out += fmt::format("  slot waits {} ({:.2f}%)", c.slot_waits, pct(c.slot_waits, c.intended));
  if (m_in_flight) out += fmt::format("  in flight {}", *m_in_flight);
  return out;
}

std::vector<std::string> LiveView::lines(Nanos elapsed, std::size_t width) const {
  std::vector<std::string> out{
      fit_columns(fmt::format("openloop {}{}  {}", prefix(), progress(elapsed), verdict_so_far()), width),
      fit_columns(fmt::format("  {}  |  {}", latest(), totals()), width)};
  if (const std::string o = observed_line(); !o.empty()) out.push_back(fit_columns("  " + o, width));
  return out;
}

std::string LiveView::observed_line() const {
  std::string out, source;
  for (const auto& s : m_observed) {
    const bool self = s.source == "self";
    // "CPU (cores)" says its unit in its label; the value says it here.
    std::string label = s.label;
    if (label.ends_with(" (cores)")) label.erase(label.size() - 8);
    std::string value = s.unit == "s/s"     ? fmt::format("{:.3g}s/s", s.value)
                        : s.unit == "cores" ? fmt::format("{:.2f} cores", s.value)
                                            : fmt::format("{:.2f}", s.value);
    if (s.source != source) {
      out += fmt::format("{}{} {} {}", out.empty() ? "observed: " : " · ", self ? "generator" : s.source,
                         label, value);
      source = s.source;
    } else {
      out += fmt::format(", {} {}", label, value);
    }
  }
  return out;
}

std::string LiveView::plain_line(Nanos elapsed) const {
  const std::string o = observed_line();
  return fmt::format("openloop: {}{}  {}  |  {}  |  {}{}", prefix(), progress(elapsed), verdict_so_far(),
                     latest(), totals(), o.empty() ? "" : "  |  " + o);
}

}  // namespace openloop::report
