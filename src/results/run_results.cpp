// Summaries and derived rates of a run.
#include "results/run_results.h"

#include <algorithm>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/recording/interval_stats.h"

namespace openloop::results {

LatencySummary LatencySummary::of(const hdr::Histogram& h) {
  LatencySummary s;
  s.count = h.total_count();
  if (s.count == 0) return s;
  s.p50 = h.value_at_percentile(50);
  s.p90 = h.value_at_percentile(90);
  s.p99 = h.value_at_percentile(99);
  s.p999 = h.value_at_percentile(99.9);
  s.p9999 = h.value_at_percentile(99.99);
  s.max = h.max();
  s.mean = h.mean();
  return s;
}

RunResults::RunResults()
    : response_time(make_latency_histogram()),
      service_time(make_latency_histogram()),
      send_lateness(make_latency_histogram()) {}

void set_latencies(IntervalResult& r, const hdr::Histogram& response_time, const hdr::Histogram& service_time,
                   const hdr::Histogram& send_lateness, const hdr::Histogram& attempt_time) {
  r.response_time = LatencySummary::of(response_time);
  r.service_time = LatencySummary::of(service_time);
  r.send_lateness = LatencySummary::of(send_lateness);
  r.attempt_time = LatencySummary::of(attempt_time);
  r.response_time_hist = hdr::to_compressed_base64(response_time);
  r.service_time_hist = hdr::to_compressed_base64(service_time);
  r.send_lateness_hist = hdr::to_compressed_base64(send_lateness);
  r.attempt_time_hist = hdr::to_compressed_base64(attempt_time);
}

void set_server_timing(IntervalResult& r, const ServerTimingStats& s) {
  r.server_time = LatencySummary::of(s.server_time);
  r.outside_server = LatencySummary::of(s.outside_server);
  const bool any = s.count() > 0;
  r.server_time_hist = any ? hdr::to_compressed_base64(s.server_time) : "";
  r.outside_server_hist = any ? hdr::to_compressed_base64(s.outside_server) : "";
  r.server_timing_negative = s.negative;
  r.server_timing_malformed = s.malformed;
  r.server_timing_no_duration = s.no_duration;
}

void set_session_time(IntervalResult& r, const hdr::Histogram& session_time) {
  r.session_time = LatencySummary::of(session_time);
  r.session_time_hist = session_time.total_count() > 0 ? hdr::to_compressed_base64(session_time) : "";
}

void set_slot_wait(IntervalResult& r, const hdr::Histogram& slot_wait) {
  r.slot_wait = LatencySummary::of(slot_wait);
  r.slot_wait_hist = slot_wait.total_count() > 0 ? hdr::to_compressed_base64(slot_wait) : "";
}

namespace {
double per_second(std::uint64_t n, double s) {
  return s > 0 ? static_cast<double>(n) / s : 0.0;
}
}  // namespace

double RunResults::offered_rps() const {
  return per_second(totals.intended, measured_s);
}
double RunResults::sent_rps() const {
  return per_second(totals.sent, measured_s);
}
double RunResults::throughput_rps() const {
  return per_second(totals.completed, measured_s);
}
double RunResults::goodput_rps() const {
  return per_second(totals.ok, measured_s);
}

void RequestTotals::add(const RequestTotals& other) {
  counters.add(other.counters);
  response_time.add(other.response_time);
  service_time.add(other.service_time);
}

RequestTotals& RunResults::request(const std::string& name) {
  by_request.resize(std::max(by_request.size(), info.request_names.size()));
  for (std::size_t i = 0; i < info.request_names.size(); ++i) {
    if (info.request_names[i] == name) return by_request[i];
  }
  info.request_names.push_back(name);
  by_request.resize(info.request_names.size());
  by_request.back().name = name;
  return by_request.back();
}

void RunResults::add(const RunResults& other, const std::vector<std::string>& names) {
  totals.add(other.totals);
  warmup.add(other.warmup);
  flows.add(other.flows);
  response_time.add(other.response_time);
  service_time.add(other.service_time);
  send_lateness.add(other.send_lateness);
  attempt_time.add(other.attempt_time);
  session_time.add(other.session_time);
  slot_wait.add(other.slot_wait);
  phases.add(other.phases);
  server_timing.add(other.server_timing);
  for (const auto& name : names) request(name);  // every request is listed, sent or not
  if (other.by_request.empty()) {
    if (names.size() != 1) return;
    RequestTotals& t = request(names.front());
    t.counters.add(other.totals);
    t.response_time.add(other.response_time);
    t.service_time.add(other.service_time);
    return;
  }
  for (std::size_t i = 0; i < other.by_request.size() && i < names.size(); ++i) {
    request(names[i]).add(other.by_request[i]);
  }
}

Result<RunResults> interval_as_run(const IntervalResult& in, const std::vector<std::string>& request_names) {
  RunResults run;
  run.info.request_names = request_names;
  run.totals = in.counters;
  run.flows = in.flows;
  const std::pair<const EncodedHistogram*, hdr::Histogram*> histograms[] = {
      {&in.response_time_hist, &run.response_time}, {&in.service_time_hist, &run.service_time},
      {&in.send_lateness_hist, &run.send_lateness}, {&in.attempt_time_hist, &run.attempt_time},
      {&in.session_time_hist, &run.session_time},   {&in.server_time_hist, &run.server_timing.server_time},
      {&in.outside_server_hist, &run.server_timing.outside_server}, {&in.slot_wait_hist, &run.slot_wait}};
  const char* tags[] = {"response_time", "service_time", "send_lateness",  "attempt_time",
                        "session_time",  "server_time",  "outside_server", "slot_wait"};
  for (std::size_t k = 0; k < std::size(histograms); ++k) {
    const auto& [text, into] = histograms[k];
    if (text->empty()) continue;
    auto h = hdr::from_compressed_base64(text->text());
    if (!h) {
      return usage_error(
          fmt::format("interval at {}s: {} histogram: {}", in.start_s, tags[k], h.error().message));
    }
    into->add(*h);
  }
  run.server_timing.negative = in.server_timing_negative;
  run.server_timing.malformed = in.server_timing_malformed;
  run.server_timing.no_duration = in.server_timing_no_duration;
  for (std::size_t i = 0; i < in.by_request.size() && i < request_names.size(); ++i) {
    run.request(request_names[i]).counters = in.by_request[i];
  }
  return run;
}

void add_spill_files(const RunResults& r, std::vector<std::shared_ptr<const SpillFile>>& into) {
  const auto& file = r.intervals.spill();
  if (file && std::find(into.begin(), into.end(), file) == into.end()) into.push_back(file);
  for (const ScenarioResults& s : r.scenarios) add_spill_files(s.results, into);
}

std::vector<std::shared_ptr<const SpillFile>> spill_files(const RunResults& r) {
  std::vector<std::shared_ptr<const SpillFile>> files;
  add_spill_files(r, files);
  return files;
}

bool RunResults::unreachable() const {
  const Counters& c = totals;
  return c.completed == 0 && c.errors_total() > 0 &&
         c.error(ErrorKind::connect) + c.error(ErrorKind::tls) == c.errors_total();
}

void add_generator(GeneratorStats& into, const GeneratorStats& part, PartsRan how) {
  const bool side_by_side = how == PartsRan::side_by_side;
  const double thread_seconds = into.wall_seconds * into.threads + part.wall_seconds * part.threads;
  const double longest_wall = std::max(into.wall_seconds, part.wall_seconds);
  const double summed_wall = into.wall_seconds + part.wall_seconds;
  if (side_by_side) {
    into.threads += part.threads;
    into.max_connections += part.max_connections;
    into.peak_connections += part.peak_connections;
  } else {
    into.threads = std::max(into.threads, part.threads);
    into.max_connections = std::max(into.max_connections, part.max_connections);
    into.peak_connections = std::max(into.peak_connections, part.peak_connections);
  }
  // Without threads (nothing ran) there are no thread-seconds to share out: the wall time of the whole.
  into.wall_seconds =
      into.threads > 0 ? thread_seconds / into.threads : (side_by_side ? longest_wall : summed_wall);
  into.connections_h1 += part.connections_h1;
  into.connections_h2 += part.connections_h2;
  into.cpu_seconds += part.cpu_seconds;
  into.spin_seconds += part.spin_seconds;
  into.spin_below_us = std::max(into.spin_below_us, part.spin_below_us);
  into.abandoned += part.abandoned;
  into.max_rss_kb = std::max(into.max_rss_kb, part.max_rss_kb);
  const std::uint64_t rounds = into.coordinator_rounds + part.coordinator_rounds;
  if (rounds > 0) {
    into.coordinator_cpu_ms_mean =
        (into.coordinator_cpu_ms_mean * static_cast<double>(into.coordinator_rounds) +
         part.coordinator_cpu_ms_mean * static_cast<double>(part.coordinator_rounds)) /
        static_cast<double>(rounds);
  }
  into.coordinator_rounds = rounds;
  into.coordinator_cpu_ms_max = std::max(into.coordinator_cpu_ms_max, part.coordinator_cpu_ms_max);
  into.coordinator_merge_ms_max = std::max(into.coordinator_merge_ms_max, part.coordinator_merge_ms_max);
  into.coordinator_clear_ms_max = std::max(into.coordinator_clear_ms_max, part.coordinator_clear_ms_max);
  into.coordinator_progress_ms_max =
      std::max(into.coordinator_progress_ms_max, part.coordinator_progress_ms_max);
  if (part.steal_share) into.steal_share = std::max(into.steal_share.value_or(0.0), *part.steal_share);
  if (part.run_delay_seconds)
    into.run_delay_seconds = into.run_delay_seconds.value_or(0.0) + *part.run_delay_seconds;
}

void add_replay_sessions(ReplaySessionStats& into, const ReplaySessionStats& part, PartsRan how) {
  if (!part.replayed) return;
  into.replayed = true;
  into.delayed += part.delayed;
  into.delay_s += part.delay_s;
  into.dropped += part.dropped;
  if (how == PartsRan::side_by_side) {
    into.sessions_peak += part.sessions_peak;
    into.held_peak += part.held_peak;
  } else {
    into.sessions_peak = std::max(into.sessions_peak, part.sessions_peak);
    into.held_peak = std::max(into.held_peak, part.held_peak);
  }
}

void RunResults::add_metadata(const RunResults& part, std::string_view label, PartsRan how) {
  add_generator(generator, part.generator, how);
  add_replay_sessions(replay_sessions, part.replay_sessions, how);
  for (const auto& example : part.error_examples) {
    const bool known = std::any_of(error_examples.begin(), error_examples.end(),
                                   [&](const auto& e) { return e.first == example.first; });
    if (!known) error_examples.push_back(example);
  }
  for (const auto& w : part.warnings) add_warning(w, label);
}

void RunResults::add_warning(const std::string& warning, std::string_view label) {
  if (label.empty()) {
    if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) warnings.push_back(warning);
    return;
  }
  // Said by an earlier part already ("repeat 1: W"): once, with both labels ("repeat 1, repeat 2: W").
  const std::string tail = ": " + warning;
  for (std::string& w : warnings) {
    if (w.size() > tail.size() && w.compare(w.size() - tail.size(), tail.size(), tail) == 0) {
      w.insert(w.size() - tail.size(), fmt::format(", {}", label));
      return;
    }
  }
  warnings.push_back(fmt::format("{}: {}", label, warning));
}

}  // namespace openloop::results
