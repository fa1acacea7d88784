// The metrics endpoint's published snapshots (see metrics_board.h).
#include "report/metrics/metrics_board.h"

#include <utility>

namespace openloop::report {

std::vector<MetricFamily> MetricsSnapshot::families() const {
  std::vector<std::vector<MetricFamily>> all;
  all.push_back(*extra);
  for (const Part& p : parts) {
    if (p.added_later && p.state->updates == 0) continue;
    all.push_back(run_metric_families(*p.state, *p.context));
  }
  return merge_families(std::move(all));
}

MetricsBoard::MetricsBoard(std::vector<MetricsContext> initial_parts) {
  MetricsSnapshot first;
  const auto empty = std::make_shared<const MetricsState>();
  for (MetricsContext& c : initial_parts) {
    first.parts.push_back({std::make_shared<const MetricsContext>(std::move(c)), empty, false});
  }
  first.extra = std::make_shared<const std::vector<MetricFamily>>();
  m_latest.store(std::make_shared<const MetricsSnapshot>(std::move(first)));
}

void MetricsBoard::publish(MetricsSnapshot next) {
  next.version = m_latest.load(std::memory_order_relaxed)->version + 1;
  m_latest.store(std::make_shared<const MetricsSnapshot>(std::move(next)), std::memory_order_release);
}

void MetricsBoard::update(std::size_t part, MetricsState state) {
  std::lock_guard lock(m_publish);
  MetricsSnapshot next = *m_latest.load(std::memory_order_relaxed);  // pointers only: the parts are shared
  MetricsSnapshot::Part& p = next.parts.at(part);
  state.updates = p.state->updates + 1;
  p.state = std::make_shared<const MetricsState>(std::move(state));
  publish(std::move(next));
}

std::size_t MetricsBoard::add_part(MetricsContext context) {
  std::lock_guard lock(m_publish);
  MetricsSnapshot next = *m_latest.load(std::memory_order_relaxed);
  next.parts.push_back({std::make_shared<const MetricsContext>(std::move(context)),
                        std::make_shared<const MetricsState>(), true});
  const std::size_t index = next.parts.size() - 1;
  publish(std::move(next));
  return index;
}

void MetricsBoard::set_extra(std::vector<MetricFamily> families) {
  std::lock_guard lock(m_publish);
  MetricsSnapshot next = *m_latest.load(std::memory_order_relaxed);
  next.extra = std::make_shared<const std::vector<MetricFamily>>(std::move(families));
  publish(std::move(next));
}

}  // namespace openloop::report
