// Scenario combination.
#include "results/merging/combine.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/merging/interval_server_timing.h"
#include "results/judging/verdict.h"

namespace openloop::results {
namespace {

struct Slot {
  Counters counters;
  FlowCounters flows;
  hdr::Histogram rt = make_latency_histogram(), st = make_latency_histogram(), sl = make_latency_histogram();
  hdr::Histogram at = make_latency_histogram(), session = make_latency_histogram();
  hdr::Histogram slot_wait = make_latency_histogram();
  std::vector<Counters> by_request;  ///< by combined request index
  double length_s = 0;
  ServerTimingStats server_timing;
  double coalesce_us = -1;  ///< --coalesce auto: the widest window any scenario used (−1: none was auto)
  bool used = false;
};

void add_encoded(hdr::Histogram& into, const std::string& b64) {
  if (b64.empty()) return;
  if (auto h = hdr::from_compressed_base64(b64)) into.add(*h);
}

// A scenario's request indexes in the combined run (RunResults::add has named them there).
std::vector<std::size_t> request_indexes(const RunResults& out, const RunResults& r) {
  std::vector<std::size_t> index;
  const auto& names = out.info.request_names;
  for (const auto& name : r.info.request_names) {
    index.push_back(static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin()));
  }
  return index;
}

void add_interval_requests(Slot& slot, const IntervalResult& i, const RunResults& r,
                           const std::vector<std::size_t>& index, std::size_t names) {
  slot.by_request.resize(names);
  if (i.by_request.empty()) {
    if (index.size() == 1 && r.by_request.empty()) slot.by_request[index[0]].add(i.counters);
    return;
  }
  for (std::size_t k = 0; k < i.by_request.size() && k < index.size(); ++k) {
    slot.by_request[index[k]].add(i.by_request[k]);
  }
}

}  // namespace

RunResults combine_scenarios(const std::vector<ScenarioResults>& scenarios) {
  RunResults out;
  const RunResults& first = scenarios.front().results;
  out.info = first.info;
  out.info.request_names.clear();
  double t0 = scenarios.front().offset_s, end = 0;
  for (const auto& s : scenarios) t0 = std::min(t0, s.offset_s);
  std::vector<Slot> slots;
  std::vector<std::vector<std::size_t>> request_index_of;
  for (const auto& s : scenarios) out.add(s.results);
  for (const auto& s : scenarios) request_index_of.push_back(request_indexes(out, s.results));
  for (std::size_t n = 0; n < scenarios.size(); ++n) {
    const auto& s = scenarios[n];
    const RunResults& r = s.results;
    if (r.info.model != out.info.model) out.info.model = Model::mixed;
    end = std::max(end, s.offset_s - t0 + r.measured_s);
    out.interrupted = out.interrupted || r.interrupted;
    out.add_metadata(r, s.name, PartsRan::side_by_side);
    for (const auto& i : r.intervals) {
      const double length = first.intervals.empty() ? 1.0 : first.intervals.front().length_s;
      const auto index =
          static_cast<std::size_t>(std::llround((s.offset_s - t0 + i.start_s) / std::max(length, 1e-9)));
      if (slots.size() <= index) slots.resize(index + 1);
      Slot& slot = slots[index];
      slot.used = true;
      slot.length_s = std::max(slot.length_s, i.length_s);
      slot.counters.add(i.counters);
      slot.flows.add(i.flows);
      slot.coalesce_us = std::max(slot.coalesce_us, i.coalesce_us);
      add_encoded(slot.rt, i.response_time_hist.text());
      add_encoded(slot.st, i.service_time_hist.text());
      add_encoded(slot.sl, i.send_lateness_hist.text());
      add_encoded(slot.at, i.attempt_time_hist.text());
      add_encoded(slot.session, i.session_time_hist.text());
      add_encoded(slot.slot_wait, i.slot_wait_hist.text());
      if (auto added = add_interval_server_timing(slot.server_timing, i); !added)
        out.warnings.push_back(fmt::format("{}: interval {}: {}", s.name, index, added.error().message));
      add_interval_requests(slot, i, r, request_index_of[n], out.info.request_names.size());
    }
  }
  // Like a single run, one request has no breakdown: its numbers are the totals.
  const bool breakdown = out.info.request_names.size() > 1;
  if (!breakdown) out.by_request.clear();
  out.measured_s = end;
  out.info.duration_s = end;
  out.info.offered_rps = 0;
  for (const auto& s : scenarios) out.info.offered_rps += s.results.info.offered_rps;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    Slot& slot = slots[k];
    IntervalResult r;
    r.start_s = static_cast<double>(k) * (first.intervals.empty() ? 1.0 : first.intervals.front().length_s);
    r.length_s = slot.length_s;
    r.counters = slot.counters;
    r.flows = slot.flows;
    r.coalesce_us = slot.coalesce_us;
    set_latencies(r, slot.rt, slot.st, slot.sl, slot.at);
    set_session_time(r, slot.session);
    set_slot_wait(r, slot.slot_wait);
    set_server_timing(r, slot.server_timing);
    if (breakdown) {
      r.by_request = std::move(slot.by_request);
      r.by_request.resize(out.info.request_names.size());
    }
    out.intervals.push_back(std::move(r));
  }
  // Judge the combined run as if it were one; every scenario's own reasons are kept too.
  out.verdict = judge(out);
  for (const auto& s : scenarios) {
    for (const auto& reason : s.results.verdict.reasons)
      out.verdict.reasons.push_back(s.name + ": " + reason);
  }
  out.verdict.valid = out.verdict.reasons.empty();
  return out;
}

}  // namespace openloop::results
