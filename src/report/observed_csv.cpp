// The observed signals as CSV beside the .hlog, timestamped as its intervals are.
#include "report/observed_csv.h"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "core/time.h"
#include "hdr/interval_log.h"
#include "hdr/java_format.h"
#include "report/hlog_export.h"
#include "report/text_format.h"

namespace openloop::report {
namespace {

using csv::field;

}  // namespace

std::string observed_companion_path(const std::string& hlog_path) {
  if (hlog_path.empty() || hlog_path == "-") return "";
  const std::string ext = ".hlog";
  if (hlog_path.size() > ext.size() && hlog_path.ends_with(ext))
    return hlog_path.substr(0, hlog_path.size() - ext.size()) + ".observed.csv";
  return hlog_path + ".observed.csv";
}

std::string render_observed_csv(const results::RunResults& r) {
  const auto start_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      wall_clock_ms(r.info.start_unix_s).time_since_epoch());
  std::string out = fmt::format(
      "#[StartTime: {} (seconds since epoch), as the .hlog's; start and length as its intervals']\n",
      hdr::java_fixed(static_cast<double>(start_ms.count()) / 1000.0, 3));
  out += "start,length";
  for (const auto& s : r.observed.signals) out += "," + field(s.source + "/" + s.name);
  out += "\n";
  for (const auto& i : r.intervals) {
    // Exactly as the .hlog writes them (the same nanoseconds, the same formatting).
    out += hdr::java_fixed(hdr::LogSeconds(from_seconds(i.start_s)).count(), 3) + "," +
           hdr::java_fixed(hdr::LogSeconds(from_seconds(i.length_s)).count(), 3);
    for (std::size_t c = 0; c < r.observed.signals.size(); ++c) {
      const double v = c < i.observed.size() ? i.observed[c] : NAN;
      out += std::isfinite(v) ? fmt::format(",{}", v) : std::string(",");
    }
    out += "\n";
  }
  return out;
}

}  // namespace openloop::report
