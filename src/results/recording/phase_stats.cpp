// Phase histograms: recording, merging, clearing.
#include "results/recording/phase_stats.h"

#include "results/recording/interval_stats.h"

namespace openloop::results {

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::connect:
      return "connect";
    case Phase::tls:
      return "tls";
    case Phase::ttfb:
      return "ttfb";
    case Phase::body:
      return "body";
    case Phase::count_:
      break;
  }
  return "unknown";
}

hdr::Histogram make_phase_histogram() {
  return hdr::Histogram(1, k_max_trackable_ns, k_phase_significant_digits);
}

std::array<hdr::Histogram, k_phases> PhaseStats::make_set() {
  return {make_phase_histogram(), make_phase_histogram(), make_phase_histogram(), make_phase_histogram()};
}

void PhaseStats::record(const AttemptPhases& a) {
  auto& set = a.new_connection ? fresh : reused;
  for (std::size_t i = 0; i < k_phases; ++i) {
    if (a.ns[i] >= 0) record_ns(set[i], a.ns[i]);
  }
}

void PhaseStats::add(const PhaseStats& o) {
  for (std::size_t i = 0; i < k_phases; ++i) {
    fresh[i].add(o.fresh[i]);
    reused[i].add(o.reused[i]);
  }
}

void PhaseStats::clear() {
  for (std::size_t i = 0; i < k_phases; ++i) {
    fresh[i].reset();
    reused[i].reset();
  }
}

bool PhaseStats::empty() const {
  for (std::size_t i = 0; i < k_phases; ++i) {
    if (fresh[i].total_count() > 0 || reused[i].total_count() > 0) return false;
  }
  return true;
}

bool PhaseStats::has_layout() const {
  static const std::int32_t length = make_phase_histogram().counts_length();
  for (std::size_t i = 0; i < k_phases; ++i) {
    if (fresh[i].counts_length() != length || reused[i].counts_length() != length) return false;
  }
  return true;
}

}  // namespace openloop::results
