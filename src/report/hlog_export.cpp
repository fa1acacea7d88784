// .hlog export: decode each interval's histograms and write them through hdr::IntervalLogWriter.
#include "report/hlog_export.h"

#include <cctype>
#include <cmath>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/time.h"
#include "hdr/codec.h"
#include "hdr/interval_log.h"
#include "report/report_input.h"
#include "results/flow_steps.h"

namespace openloop::report {

std::chrono::system_clock::time_point wall_clock_ms(double unix_s) {
  // The epsilon keeps 1700000000.123 (stored as ...122.99999) on its millisecond.
  return std::chrono::system_clock::time_point(
      std::chrono::milliseconds(static_cast<std::int64_t>(std::floor(unix_s * 1000.0 + 1e-3))));
}

std::string step_tag(std::size_t step, std::string_view request) {
  std::string tag = fmt::format("step_{}:", step);
  for (const char c : request) tag += c == ',' || std::isspace(static_cast<unsigned char>(c)) != 0 ? '_' : c;
  return tag;
}

Result<void> write_interval_log(const results::RunResults& r, const WriteSink& sink) {
  std::ostringstream out;
  hdr::IntervalLogWriter writer(out);
  const std::vector<results::FlowStep> steps = results::flow_steps(r);
  // The text so far goes to the sink, so that the log is held one interval at a time.
  const auto flush = [&out, &sink]() -> Result<void> {
    const std::string text = out.str();
    out.str("");
    return sink(text);
  };
  writer.write_comment(fmt::format(
      "[openloop {}run of {}: {} intervals; values in ns, Interval_Max in ms; tags: "
      "response_time (completion - intended time), service_time (completion - send), "
      "send_lateness (send - intended time); with Server-Timing responses also server_time (the server's "
      "reported dur) and outside_server (response_time - server_time){}]",
      r.info.model == results::Model::unknown ? "" : fmt::format("{} ", results::to_string(r.info.model)),
      r.info.target.empty() ? "(unknown target)" : r.info.target, r.intervals.size(),
      steps.empty() ? ""
                    : "; a flow's steps, step_N:REQUEST (from the step's due time), and the flow, flow (a "
                      "session's intended start to its last response), one line each for the whole run"));
  writer.write_header(wall_clock_ms(r.info.start_unix_s));
  // A flow's steps and its own time: one histogram each over the measured period (the results keep no
  // per-interval breakdown of them), first, at start 0.
  const Nanos whole = from_seconds(r.measured_s);
  for (const results::FlowStep& step : steps) {
    if (step.response_time == nullptr) continue;
    OPENLOOP_TRY_VOID(
        writer.write_interval(Nanos(0), whole, *step.response_time, step_tag(step.step, step.request)));
  }
  if (!steps.empty()) {
    OPENLOOP_TRY_VOID(writer.write_interval(Nanos(0), whole, r.session_time, k_flow_tag));
  }
  OPENLOOP_TRY_VOID(flush());
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    const results::IntervalResult& i = r.intervals[k];
    const results::EncodedHistogram* texts[] = {&i.response_time_hist, &i.service_time_hist,
                                                &i.send_lateness_hist};
    for (int slot = 0; slot < 3; ++slot) {
      auto h = hdr::from_compressed_base64(texts[slot]->text());
      if (!h)
        return usage_error(
            fmt::format("interval {}: {} histogram: {}", k, k_latency_tags[slot], h.error().message));
      OPENLOOP_TRY_VOID(
          writer.write_interval(from_seconds(i.start_s), from_seconds(i.length_s), *h, k_latency_tags[slot]));
    }
    // Server-Timing, in the intervals whose responses carried it (2 significant digits).
    const std::pair<const results::EncodedHistogram*, const char*> server[] = {
        {&i.server_time_hist, "server_time"}, {&i.outside_server_hist, "outside_server"}};
    for (const auto& [text, tag] : server) {
      if (text->empty()) continue;
      auto h = hdr::from_compressed_base64(text->text());
      if (!h) return usage_error(fmt::format("interval {}: {} histogram: {}", k, tag, h.error().message));
      OPENLOOP_TRY_VOID(writer.write_interval(from_seconds(i.start_s), from_seconds(i.length_s), *h, tag));
    }
    OPENLOOP_TRY_VOID(flush());
  }
  return {};
}

Result<std::string> render_interval_log(const results::RunResults& r) {
  std::string text;
  OPENLOOP_TRY_VOID(write_interval_log(r, [&text](std::string_view piece) -> Result<void> {
    text.append(piece);
    return {};
  }));
  return text;
}

}  // namespace openloop::report
