// Fitting a constant-rate schedule to numbered sends, and each send's lateness against it.
#include "audit/send_lateness.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "audit/omission.h"
#include "core/units.h"

namespace openloop::audit {

double ScheduleFit::relative(const Record& r) const {
  return static_cast<double>((r.start - m_first_start.value_or(Nanos(0))).count());
}

void ScheduleFit::learn(const Record& r) {
  if (r.seq < 0) return;
  ++m_numbered;
  m_seq_sum += static_cast<double>(r.seq);
  if (!m_first_start) m_first_start = r.start;
  // Consecutive sends in send order: their gap per number (sends by concurrent workers may swap numbers).
  if (m_last_seq >= 0 && r.seq > m_last_seq && r.start >= m_last_start) {
    const auto per = (r.start - m_last_start).count() / (r.seq - m_last_seq);
    m_gaps_ns.record(std::max<std::int64_t>(per, 1));
  }
  m_last_seq = r.seq;
  m_last_start = r.start;
}

bool ScheduleFit::fittable() const {
  return m_gaps_ns.total_count() > 0 && m_gaps_ns.value_at_percentile(50) > 1;
}

bool ScheduleFit::begin_search() {
  if (!fittable()) return false;
  if (m_round == 0) {
    // The median gap is within a few per cent of the interval when the pacer was healthy half the time; the
    // grid spans ±10 % of it, then ± one step of the grid before, each pass.
    const double median = static_cast<double>(m_gaps_ns.value_at_percentile(50));
    m_low = 0.9 * median;
    m_step = 0.2 * median / (k_grid - 1);
  } else {
    settle();
    if (m_round >= k_rounds) return false;
    m_low = m_interval - m_step;
    m_step = 2 * m_step / (k_grid - 1);
  }
  m_min.assign(k_grid, std::numeric_limits<double>::infinity());
  ++m_round;
  return true;
}

void ScheduleFit::search(const Record& r) {
  if (r.seq < 0) return;
  const double t = relative(r);
  const double x = static_cast<double>(r.seq) - m_seq_sum / static_cast<double>(m_numbered);
  for (int k = 0; k < k_grid; ++k) m_min[k] = std::min(m_min[k], t - (m_low + k * m_step) * x);
}

void ScheduleFit::settle() {
  // The line under every send with the least total lateness is the one highest at the mean number.
  const auto best = std::max_element(m_min.begin(), m_min.end());
  m_interval = m_low + static_cast<double>(best - m_min.begin()) * m_step;
  m_origin = *best - m_interval * m_seq_sum / static_cast<double>(m_numbered);
}

void ScheduleFit::lateness(const Record& r) {
  if (r.seq < 0 || m_round == 0) return;
  const double late = relative(r) - (m_origin + m_interval * static_cast<double>(r.seq));
  const auto ns = std::max<std::int64_t>(0, std::llround(late));  // ≥ 0 but for rounding
  m_late.record(std::min<std::int64_t>(ns, 3'600'000'000'000LL));
  if (late > m_interval * (1 + 1e-3))
    ++m_late_over_interval;  // one interval exactly, within the fit's ns, is not over
}

SendLatenessFinding ScheduleFit::finish(const std::string& tool) const {
  SendLatenessFinding f;
  if (m_numbered == 0) {
    f.why = fmt::format("{} numbers no send in this file, so its schedule cannot be rebuilt", tool);
    return f;
  }
  if (!fittable() || m_round == 0 || m_late.total_count() == 0) {
    f.why = fmt::format("{} numbers its sends, but fewer than two apart in time: no schedule to fit", tool);
    return f;
  }
  f.applicable = true;
  f.interval = Nanos(std::llround(m_interval));
  f.rate = 1e9 / m_interval;
  f.lateness = percentiles_of(m_late);
  f.late_over_interval = m_late_over_interval;
  f.why = fmt::format(
      "send n due at T0 + n × {}, the schedule fitted as the line under every send that leaves the least "
      "lateness (the file holds no rate, so a tool that fell behind at one steady pace for the whole run "
      "reads as one with a slower schedule)",
      format_duration(f.interval));
  f.sentence = fmt::format(
      "{} sent its requests p99 {} late (p50 {}, max {}) against the {} schedule its sequence numbers "
      "imply; {} of {} sends left more than one interval late",
      tool, format_duration(f.lateness.p99), format_duration(f.lateness.p50), format_duration(f.lateness.max),
      format_rate(f.rate), f.late_over_interval, f.lateness.count);
  return f;
}

}  // namespace openloop::audit
