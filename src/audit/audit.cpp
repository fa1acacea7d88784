// `openloop audit`: the two passes over a file and the findings they make.
#include "audit/audit.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "audit/feedback.h"
#include "audit/honest_run.h"
#include "audit/load_model.h"
#include "audit/locust_history.h"
#include "audit/omission.h"
#include "audit/pace_detector.h"
#include "audit/record_stream.h"
#include "audit/send_lateness.h"
#include "audit/sender_stats.h"
#include "audit/time_bins.h"
#include "core/units.h"

namespace openloop::audit {
namespace {

// The first send, read before the first pass so the bins have an origin.
Result<Nanos> first_send(const std::string& path, const AuditSettings& settings) {
  RecordStream stream(OPENLOOP_TRY(open_reader(path, settings.format)), settings.reorder_window);
  Record r;
  if (!OPENLOOP_TRY(stream.next(r))) {
    const BadLines& bad = stream.reader().bad_lines();
    if (bad.count > 1) {
      return usage_error(
          fmt::format("{} (and {} more bad line(s)); no request could be read", bad.first, bad.count - 1));
    }
    if (bad.count == 1) return usage_error(fmt::format("{}; no request could be read", bad.first));
    return usage_error(
        fmt::format("{}: holds no request record that a {} file would (only a header, or other "
                    "lines only?)",
                    path, stream.reader().traits().tool));
  }
  return r.start;
}

LittleFinding little_of(const std::map<std::string, SenderStats>& senders, std::int64_t records, Nanos r_sum,
                        Nanos span, bool have_senders) {
  LittleFinding l;
  const double span_s = to_seconds(span);
  l.x_per_s = span_s > 0 ? static_cast<double>(records) / span_s : 0;
  l.r_mean = records > 0 ? r_sum / records : Nanos(0);
  std::int64_t waits = 0;
  Nanos z_sum{0};
  for (const auto& [name, s] : senders) {
    waits += s.waits();
    z_sum += s.think_sum();
  }
  if (have_senders && waits > 0) {
    l.z_mean = z_sum / waits;
    l.z_source = "the senders' own gaps between a response and their next send";
  } else {
    l.z_source =
        "assumed 0: the file names no sender, and the tool sends the next request as a response ends";
  }
  l.in_flight = l.x_per_s * to_seconds(l.r_mean);
  l.n = l.x_per_s * to_seconds(l.r_mean + l.z_mean);
  return l;
}

}  // namespace

Result<AuditResult> audit_file(const std::string& path, const AuditSettings& settings) {
  const Format format =
      settings.format == Format::auto_detect ? OPENLOOP_TRY(detect_format(path)) : settings.format;
  if (format == Format::locust) return audit_locust_history(path, settings.target);
  const Nanos origin = OPENLOOP_TRY(first_send(path, settings));
  AuditResult a;
  a.path = path;
  std::map<std::string, SenderStats> senders;
  hdr::Histogram uncorrected = response_histogram();
  Nanos r_sum{0}, first{INT64_MAX}, last_end{INT64_MIN};

  // Pass 1: senders, bins, the uncorrected histogram.
  RecordStream stream(OPENLOOP_TRY(open_reader(path, settings.format)), settings.reorder_window);
  const ReaderTraits traits = stream.reader().traits();
  a.tool = traits.tool;
  // No bin narrower than the stamps: ab's whole seconds in 10-ms bins would read as 99 empty bins in 100.
  TimeBins bins(origin, std::max<Nanos>(std::chrono::milliseconds(10), traits.start_resolution));
  const Nanos tolerance = std::max(3 * traits.start_resolution, Nanos(100'000));
  ScheduleFit schedule;
  PaceDetector pace(traits.start_resolution);
  Record r;
  while (OPENLOOP_TRY(stream.next(r))) {
    ++a.records;
    if (!r.ok) ++a.failures;
    r_sum += r.duration;
    first = std::min(first, r.start);
    last_end = std::max(last_end, r.start + r.duration);
    uncorrected.record(std::clamp<std::int64_t>(r.duration.count(), 0, 3'600'000'000'000LL));
    bins.add(r.start, r.duration);
    if (!r.thread.empty()) senders[r.thread].add(r, tolerance);
    schedule.learn(r);
    if (stream.chained()) pace.learn(r.start);
  }
  a.bad = stream.reader().bad_lines();
  a.out_of_order = stream.out_of_order();
  a.span = last_end - first;

  a.model = classify_model(senders, traits, stream.chained(), a.records);
  a.little = little_of(senders, a.records, r_sum, a.span, !senders.empty());
  a.feedback = find_feedback(bins);

  // Pass 2: every response again, with its sender's expected interval.
  Nanos pooled = Nanos(uncorrected.value_at_percentile(50));
  std::string pooled_why = fmt::format(
      "{} names no sender: its senders send back to back, so a sender's expected interval is its typical "
      "response "
      "time; the median response time over the file ({}) is used",
      traits.tool, format_duration(pooled));
  const std::optional<Pace> paced =
      stream.chained() && a.model.model != LoadModel::open && a.model.back_to_back_share < 0.5
          ? pace.find()
          : std::nullopt;
  if (paced) {
    // Unnamed senders that did not send as responses ended, but one pace apart: each on a pace (hey -q).
    a.model.model = LoadModel::paced;
    a.model.evidence = fmt::format(
        "only {:.0f} % of sends followed a response's end, but {:.0f} % came {} after another send, "
        "above the other sends' spacing: senders paced at {} (hey -q Q paces each worker at 1/Q s), "
        "about {:.1f} of them",
        100 * a.model.back_to_back_share, 100 * paced->share, format_duration(paced->interval),
        format_duration(paced->interval), a.feedback.healthy_rate * to_seconds(paced->interval));
    // A paced sender's cycle is its interval: R + Z = I while its response is shorter.
    a.little.z_mean = std::max(Nanos(0), paced->interval - a.little.r_mean);
    a.little.n = a.little.x_per_s * to_seconds(a.little.r_mean + a.little.z_mean);
    a.little.z_source = "the pace found in the sends' spacing less the mean response time";
    pooled = paced->interval;
    pooled_why = fmt::format(
        "{} names no sender; its sends are spaced {} apart ({:.0f} % of them above the background): the pace "
        "each sender was held to, so a sender held for k paces kept k − 1 sends from being sent",
        traits.tool, format_duration(paced->interval), 100 * paced->share);
  }
  OmissionCorrector corrector(paced ? std::map<std::string, SenderStats>{} : senders, a.model.model, pooled,
                              pooled_why);
  RecordStream again(OPENLOOP_TRY(open_reader(path, settings.format)), settings.reorder_window);
  while (OPENLOOP_TRY(again.next(r))) corrector.add(r);
  a.omission = corrector.finish(uncorrected);

  // Numbered sends (Vegeta): the tool's own lateness against the schedule they imply, a few passes more.
  while (schedule.begin_search()) {
    RecordStream pass(OPENLOOP_TRY(open_reader(path, settings.format)), settings.reorder_window);
    while (OPENLOOP_TRY(pass.next(r))) schedule.search(r);
  }
  if (schedule.fittable()) {
    RecordStream pass(OPENLOOP_TRY(open_reader(path, settings.format)), settings.reorder_window);
    while (OPENLOOP_TRY(pass.next(r))) schedule.lateness(r);
  }
  a.lateness = schedule.finish(traits.tool);

  if (traits.start_resolution >= std::chrono::seconds(1)) {
    a.limits.push_back(
        fmt::format("{} stamps sends to the second: senders cannot be reconstructed, the model is "
                    "the tool's, and the correction uses one expected interval for all",
                    traits.tool));
  }
  if (stream.chained()) {
    a.limits.push_back(
        fmt::format("{} names no worker: senders are chains of sends that followed a response's "
                    "end; their count is not the worker count, Little's law gives N",
                    traits.tool));
  }
  if (a.out_of_order > 0) {
    a.limits.push_back(
        fmt::format("{} records came later than {} out of send order and were taken as they came",
                    a.out_of_order, format_duration(settings.reorder_window)));
  }
  for (std::string& note : stream.reader().notes()) a.limits.push_back(std::move(note));
  a.honest = honest_run(a, settings.target);
  a.verdict = verdict(a);
  return a;
}

}  // namespace openloop::audit
