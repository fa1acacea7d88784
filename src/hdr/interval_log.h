// Interval logs (.hlog, format 1.3): a writer matching Java's HistogramLogWriter and a reader for such logs.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "hdr/histogram.h"

namespace openloop::hdr {

/// Seconds as the log writes them (%.3f).
using LogSeconds = std::chrono::duration<double>;

/// Writes an .hlog line by line, exactly as Java's HistogramLogWriter formats it. Not thread-safe.
/// The stream is not owned and must outlive the writer; the caller handles atomic file replacement.
class IntervalLogWriter {
 public:
  /// max_value_unit_ratio divides each interval's max in the third column (1e6: ns values print as ms).
  explicit IntervalLogWriter(std::ostream& out, double max_value_unit_ratio = 1e6);

  /// Java's preamble: format version, StartTime, BaseTime (both = start, so interval starts are offsets
  /// from the start) and the legend line.
  void write_header(std::chrono::system_clock::time_point start);
  /// "#[Histogram log format version 1.3]"
  void write_format_version();
  /// "#[StartTime: <s.mmm> (seconds since epoch), <Www Mmm dd HH:MM:SS UTC yyyy>]" (millisecond precision).
  void write_start_time(std::chrono::system_clock::time_point start);
  /// "#[BaseTime: <s.mmm> (seconds since epoch)]"
  void write_base_time(std::chrono::system_clock::time_point base);
  /// "#<text>"; line breaks in text become spaces so the log stays line-structured.
  void write_comment(std::string_view text);
  /// The CSV legend line.
  void write_legend();
  /// One data line: `[Tag=NAME,]start,length,max,base64` where start is the offset from BaseTime,
  /// numbers are %.3f seconds and the histogram is compressed V2 at zlib level 9.
  /// Error (usage) when the tag holds a comma, whitespace or line break.
  Result<void> write_interval(std::chrono::nanoseconds start_offset, std::chrono::nanoseconds length,
                              const Histogram& histogram, std::string_view tag = {});

 private:
  std::ostream& m_out;
  double m_max_value_unit_ratio;
};

/// One data line of a log.
struct IntervalLogEntry {
  std::string tag;          ///< empty for untagged lines
  LogSeconds start{};       ///< as written: seconds since BaseTime (or since the epoch for absolute logs)
  LogSeconds length{};      ///< interval length
  double max_column = 0.0;  ///< the Interval_Max column as written (max / the writer's unit ratio)
  Histogram histogram;      ///< decoded (auto-resizing, as Java's reader returns it)
  std::size_t line = 0;     ///< 1-based line number in the source
};

/// A parsed log: header facts, other comments, and every data line in order.
struct IntervalLog {
  std::string format_version;                ///< e.g. "1.3"; empty when not declared
  std::optional<double> start_time_seconds;  ///< #[StartTime: ...], seconds since the epoch
  std::optional<double> base_time_seconds;   ///< #[BaseTime: ...], seconds since the epoch
  std::vector<std::string> comments;         ///< other '#' lines, without the '#'
  std::vector<IntervalLogEntry> intervals;

  /// Seconds since the epoch at which an interval starts. Without a BaseTime line, Java's reader rule:
  /// timestamps more than a year before StartTime are offsets from StartTime, otherwise absolute.
  double absolute_start_seconds(const IntervalLogEntry& entry) const;
};

/// Parses .hlog text. `source` names the input in errors ("run.hlog:12: ..."). Unknown comment lines
/// are kept in `comments`; blank lines and the legend are skipped. Error (usage) on the first bad line,
/// naming its number and what was expected.
Result<IntervalLog> parse_interval_log(std::string_view text, std::string_view source = "hlog");
/// Reads and parses a file; errors name the path (usage when it cannot be opened, runtime on a read error).
Result<IntervalLog> read_interval_log(const std::string& path);

}  // namespace openloop::hdr
