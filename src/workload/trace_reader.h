// Reading a trace file as a stream of records: the line reader every format shares (line numbers, a bounded
// line length, bad lines refused with their place or counted and skipped), the format's line parser, and the
// format named or detected.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "workload/trace_record.h"

namespace openloop::workload {

/// The trace formats read.
enum class TraceFormat : std::uint8_t {
  automatic,  ///< detected from the first non-blank line: '{' is JSONL, anything else an nginx log
  jsonl,      ///< workload/jsonl_trace.h
  nginx       ///< workload/nginx_trace.h
};

/// Parses "auto" | "jsonl" | "nginx"; error (usage) names `what` and the accepted values.
Result<TraceFormat> parse_trace_format(std::string_view text, std::string_view what);
/// "auto" | "jsonl" | "nginx", as parse_trace_format accepts them.
std::string_view to_string(TraceFormat format);

/// The longest line a trace may hold (1 MiB): a longer one is a bad line, so memory stays bounded whatever the
/// file holds.
inline constexpr std::size_t k_max_trace_line = std::size_t{1} << 20;

/// One format's reading of one line. Not thread-safe.
class TraceLineParser {
 public:
  virtual ~TraceLineParser() = default;
  /// Fills `out` (cleared, its `line` set) from `line` (no line break). Error: what is wrong and what the
  /// format expects there, without the place (the reader adds "file:line: ").
  virtual Result<void> parse(std::string_view line, TraceRecord& out) = 0;
  /// True when the format's stamps are whole seconds that the parser spreads within their second by the seed
  /// (an nginx log without $msec).
  virtual bool spreads_seconds() const { return false; }
};

/// What to read and how.
struct TraceInput {
  std::string path;
  TraceFormat format = TraceFormat::automatic;
  /// nginx: the log_format in nginx's variable syntax; empty = the predefined "combined".
  std::string log_format;
  /// A bad line is counted and skipped instead of ending the read with an error.
  bool skip_bad = false;
  /// Seeds what the parser draws (the spread of one-second stamps).
  std::uint64_t seed = 1;
};

/// A trace read one line at a time: memory is one line and one record, whatever the file's length. Blank
/// lines are ignored. Not thread-safe; each worker opens its own.
class TraceReader {
 public:
  /// `name` is how errors call the input (its path).
  TraceReader(std::string name, std::unique_ptr<std::istream> in, std::unique_ptr<TraceLineParser> parser,
              bool skip_bad);

  /// The next record into `out`: true, or false at the end of the file. A bad line (one the parser refuses,
  /// or longer than k_max_trace_line) is an error (usage) "name:line: what was wrong", or, with skip_bad,
  /// counted in skipped() (the first one's message kept) and passed over.
  Result<bool> next(TraceRecord& out);
  /// Reads the file again from its first line (--loop). Error (runtime) when the stream cannot seek.
  Result<void> rewind();

  /// Bad lines skipped so far, and the first one's message ("" when none).
  std::uint64_t skipped() const { return m_skipped; }
  const std::string& first_skipped() const { return m_first_skipped; }
  bool spreads_seconds() const { return m_parser->spreads_seconds(); }
  const std::string& name() const { return m_name; }

 private:
  /// Reads the next line into m_line; false at the end. Sets m_too_long when the line was cut.
  bool read_line();

  std::string m_name;
  std::unique_ptr<std::istream> m_in;
  std::unique_ptr<TraceLineParser> m_parser;
  bool m_skip_bad;
  std::string m_line;
  bool m_too_long = false;
  std::uint64_t m_line_no = 0;
  std::uint64_t m_skipped = 0;
  std::string m_first_skipped;
};

/// Opens `input.path` with the parser of its format (detected from the first non-blank line when automatic).
/// Errors (usage): the file cannot be opened (the path and the system's reason), an nginx log_format that
/// cannot be read (workload/nginx_log_format.h), an empty file when the format must be detected.
Result<TraceReader> open_trace(const TraceInput& input);

}  // namespace openloop::workload
