// Reading a trace file as a stream of records: the file cut into units (lines for the log formats and JSONL,
// one entry's JSON text for HAR; each bounded in length, numbered), a unit parser per format (bad units refused
// with their place or counted and skipped), and the format named or detected.
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
  automatic,  ///< detected (open_trace): HAR, JSONL or else an nginx log
  jsonl,      ///< workload/jsonl_trace.h
  nginx,      ///< workload/nginx_trace.h
  apache,     ///< workload/apache_log_format.h (read by the nginx parser)
  har         ///< workload/har_trace.h
};

/// Parses "auto" | "jsonl" | "nginx" | "apache" | "har"; error (usage) names `what` and the accepted values.
Result<TraceFormat> parse_trace_format(std::string_view text, std::string_view what);
/// "auto" | "jsonl" | "nginx" | "apache" | "har", as parse_trace_format accepts them.
std::string_view to_string(TraceFormat format);

/// The longest line a trace may hold (1 MiB): a longer one is a bad line, so memory stays bounded whatever the
/// file holds.
inline constexpr std::size_t k_max_trace_line = std::size_t{1} << 20;

/// What a good unit held.
enum class ParsedUnit : std::uint8_t {
  record,      ///< a request: the record is filled
  no_request,  ///< a log line of a connection that sent no request (nginx's `"" 400`): counted apart, skipped
};

/// One format's reading of one unit (a line, a HAR entry). Not thread-safe.
class TraceLineParser {
 public:
  virtual ~TraceLineParser() = default;
  /// Fills `out` (cleared, its `line` set) from `line` (no line break). Error: what is wrong and what the
  /// format expects there, without the place (the reader adds "file:line: ").
  virtual Result<ParsedUnit> parse(std::string_view line, TraceRecord& out) = 0;
  /// True when the format's stamps are whole seconds that the parser spreads within their second by the seed
  /// (an nginx log without $msec).
  virtual bool spreads_seconds() const { return false; }
};

/// One unit of a trace file as its splitter cut it.
struct TraceUnit {
  std::string text;          ///< without the line break
  std::uint64_t line = 0;    ///< 1-based line where the unit starts
  std::uint64_t number = 0;  ///< 1-based index among the units of its kind (lines: the line; HAR: the entry)
  bool too_long = false;     ///< longer than the splitter's cap: `text` is cut and the unit is bad
};

/// Cuts a trace file into units. Not thread-safe.
class TraceSplitter {
 public:
  virtual ~TraceSplitter() = default;
  /// The next unit into `out`: true, or false at the end. Error: the file as a whole is broken (a HAR that is
  /// not a HAR document or ends inside one), or a read failed: never skipped.
  virtual Result<bool> next(TraceUnit& out) = 0;
  /// From the file's start again (--loop). Error (runtime): the stream cannot seek.
  virtual Result<void> rewind() = 0;
  /// What a unit is called in messages when it is not a line ("entry"), or "" for lines.
  virtual std::string_view unit_name() const { return {}; }
};

/// Lines of a stream: at most k_max_trace_line bytes kept of each (a longer one is too_long); a trailing CR
/// dropped.
std::unique_ptr<TraceSplitter> line_splitter(std::string name, std::unique_ptr<std::istream> in);

/// What to read and how.
struct TraceInput {
  std::string path;
  TraceFormat format = TraceFormat::automatic;
  /// nginx: the log_format in nginx's variable syntax; apache: the LogFormat in Apache's (%h %t "%r" ...);
  /// empty = the predefined "combined" (apache: "combined", or "common" for lines that end after %b).
  std::string log_format;
  /// A bad line is counted and skipped instead of ending the read with an error.
  bool skip_bad = false;
  /// Seeds what the parser draws (the spread of one-second stamps).
  std::uint64_t seed = 1;
};

/// A trace read one unit at a time: memory is one unit and one record, whatever the file's length. Blank
/// lines are ignored. Not thread-safe; each worker opens its own.
class TraceReader {
 public:
  /// `name` is how errors call the input (its path). Lines of `in`.
  TraceReader(std::string name, std::unique_ptr<std::istream> in, std::unique_ptr<TraceLineParser> parser,
              bool skip_bad);
  /// Units of `splitter`.
  TraceReader(std::string name, std::unique_ptr<TraceSplitter> splitter, std::unique_ptr<TraceLineParser> parser,
              bool skip_bad);

  /// The next record into `out`: true, or false at the end of the file. A bad unit (one the parser refuses,
  /// or longer than its cap) is an error (usage) "name:line: what was wrong" (a HAR's: "name:line: entry N:
  /// ..."), or, with skip_bad, counted in skipped() (the first one's message kept) and passed over. A line
  /// holding no request (ParsedUnit::no_request) is counted in no_requests() and passed over. Errors of the
  /// splitter end the read whatever skip_bad says.
  Result<bool> next(TraceRecord& out);
  /// Reads the file again from its first line (--loop). Error (runtime) when the stream cannot seek.
  Result<void> rewind();

  /// Bad lines skipped so far, and the first one's message ("" when none).
  std::uint64_t skipped() const { return m_skipped; }
  const std::string& first_skipped() const { return m_first_skipped; }
  /// Lines that held no request (nginx's `"" 400`: a connection closed before sending one), and the first.
  std::uint64_t no_requests() const { return m_no_requests; }
  const std::string& first_no_request() const { return m_first_no_request; }
  bool spreads_seconds() const { return m_parser->spreads_seconds(); }
  const std::string& name() const { return m_name; }
  /// The text of the unit the last record came from (a line without its break, a HAR entry's JSON).
  const std::string& unit_text() const { return m_unit.text; }

 private:
  std::string m_name;
  std::unique_ptr<TraceSplitter> m_splitter;
  std::unique_ptr<TraceLineParser> m_parser;
  bool m_skip_bad;
  TraceUnit m_unit;
  std::uint64_t m_skipped = 0;
  std::string m_first_skipped;
  std::uint64_t m_no_requests = 0;
  std::string m_first_no_request;
};

/// Opens `input.path` with the splitter and parser of its format. Automatic: a file named *.har, or whose
/// first JSON key is "log", is HAR; else a first non-blank line starting with '{' is JSONL; else an nginx log.
/// Errors (usage): the file cannot be opened (the path and the system's reason), a log format that cannot be
/// read (workload/nginx_log_format.h, workload/apache_log_format.h), an empty file when the format must be
/// detected.
Result<TraceReader> open_trace(const TraceInput& input);

}  // namespace openloop::workload
