// Adding an interval's Server-Timing back into stats.
#include "results/merging/interval_server_timing.h"

#include <string>

#include "hdr/codec.h"

namespace openloop::results {

namespace {
Result<void> add_text(hdr::Histogram& into, const EncodedHistogram& text, const char* name) {
  if (text.empty()) return {};
  auto h = hdr::from_compressed_base64(text.text());
  if (!h) return usage_error(std::string(name) + " histogram: " + h.error().message);
  if (!into.add(*h)) return usage_error(std::string(name) + " histogram holds values beyond 1 h");
  return {};
}
}  // namespace

Result<void> add_interval_server_timing(ServerTimingStats& into, const IntervalResult& from) {
  OPENLOOP_TRY_VOID(add_text(into.server_time, from.server_time_hist, "server_time"));
  OPENLOOP_TRY_VOID(add_text(into.outside_server, from.outside_server_hist, "outside_server"));
  into.negative += from.server_timing_negative;
  into.malformed += from.server_timing_malformed;
  into.no_duration += from.server_timing_no_duration;
  return {};
}

}  // namespace openloop::results
