// --step-until's stop rule: the step's window histogram grown interval by interval, judged once --hold is
// measured.
#include "procedures/ramp/ramp_until.h"

#include <algorithm>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/recording/interval_stats.h"

namespace openloop::procedures {
namespace {

// Interval edges are sums of floating-point seconds: allow a microsecond of round-off.
constexpr double k_edge_slack_s = 1e-6;

}  // namespace

StepUntilWatcher::StepUntilWatcher(std::vector<results::UntilTarget> targets, double from_s, double min_to_s)
    : m_targets(std::move(targets)),
      m_from_s(from_s),
      m_min_to_s(min_to_s),
      m_response_time(results::make_latency_histogram()) {}

bool StepUntilWatcher::update(const results::RunResults& so_far, std::atomic<int>& stop) {
  if (m_stopped || !m_error.empty()) return false;
  // Only the intervals finalized since the last call: the earlier ones may be parked in a spill file by now.
  for (; m_next < so_far.intervals.size(); ++m_next) {
    const results::IntervalResult in = so_far.intervals[m_next];
    if (in.start_s + k_edge_slack_s < m_from_s) continue;  // the silence and the step's warm-up
    const std::string text = in.response_time_hist.text();
    if (!text.empty()) {
      auto h = hdr::from_compressed_base64(text);
      if (!h) {
        m_error = fmt::format("--step-until: interval at {}s: response-time histogram: {}", in.start_s,
                              h.error().message);
        return false;
      }
      m_response_time.add(*h);
    }
    m_measured_s += in.length_s;
    m_end_s = in.start_s + in.length_s;
  }
  if (m_end_s + k_edge_slack_s < m_min_to_s) return false;
  const auto outcomes = results::judge_until(m_targets, m_response_time, m_measured_s);
  if (!std::all_of(outcomes.begin(), outcomes.end(), [](const results::UntilOutcome& o) { return o.met; }))
    return false;
  int expected = 0;
  m_stopped = stop.compare_exchange_strong(expected, 1);
  if (m_stopped) m_met_at_s = m_end_s;
  return m_stopped;
}

}  // namespace openloop::procedures
