// The --abort-on-slo watcher: results so far → the first SLO certain to fail.
#include "results/judging/slo_abort.h"

#include <cmath>
#include <limits>

namespace openloop::results {

SloAbort::SloAbort(std::vector<Slo> slos, std::vector<SloAbortPart> parts)
    : m_slos(std::move(slos)), m_parts(std::move(parts)) {
  for (const auto& p : m_parts) {
    const bool known = std::isfinite(p.planned_intended) && p.planned_intended > 0;
    m_planned += known ? p.planned_intended : std::numeric_limits<double>::infinity();
  }
}

const Slo* SloAbort::check(const std::vector<const RunResults*>& so_far) {
  if (m_failed != nullptr || so_far.empty()) return m_failed;
  if (so_far.size() == 1 && m_parts.size() == 1) {
    for (const Slo& slo : m_slos) {
      if (certain_to_fail(slo, *so_far.front(), m_planned, m_parts.front().request_names))
        return m_failed = &slo;
    }
    return nullptr;
  }
  // Several runs at once: judge their sum, requests matched by name (as the final evaluation does).
  RunResults all;
  for (std::size_t i = 0; i < so_far.size() && i < m_parts.size(); ++i) {
    add_for_slos(all, *so_far[i], m_parts[i].request_names);
  }
  for (const Slo& slo : m_slos) {
    if (certain_to_fail(slo, all, m_planned)) return m_failed = &slo;
  }
  return nullptr;
}

bool SloAbort::stop_if_certain(const std::vector<const RunResults*>& so_far, std::atomic<int>& stop) {
  if (m_failed != nullptr || check(so_far) == nullptr) return false;
  int expected = 0;
  m_stopped = stop.compare_exchange_strong(expected, 1);
  return m_stopped;
}

void SloAbort::mark(RunResults& r, int stop_value) const {
  if (!m_stopped || m_failed == nullptr) return;
  r.aborted_by_slo = m_failed->text;
  if (stop_value <= 1) r.interrupted = false;
}

}  // namespace openloop::results
