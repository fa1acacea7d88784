// Trace files read line by line (workload/trace_reader.h).
#include "workload/trace_reader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "net/errno_text.h"
#include "workload/apache_log_format.h"
#include "workload/har_trace.h"
#include "workload/jsonl_trace.h"
#include "workload/nginx_trace.h"

namespace openloop::workload {

Result<TraceFormat> parse_trace_format(std::string_view text, std::string_view what) {
  if (text == "auto") return TraceFormat::automatic;
  if (text == "jsonl") return TraceFormat::jsonl;
  if (text == "nginx") return TraceFormat::nginx;
  if (text == "apache") return TraceFormat::apache;
  if (text == "har") return TraceFormat::har;
  return usage_error(
      fmt::format("{}: \"{}\" is not a trace format; use auto, nginx, apache, har or jsonl", what, text));
}

std::string_view to_string(TraceFormat format) {
  switch (format) {
    case TraceFormat::automatic: return "auto";
    case TraceFormat::jsonl: return "jsonl";
    case TraceFormat::nginx: return "nginx";
    case TraceFormat::apache: return "apache";
    case TraceFormat::har: return "har";
  }
  return "auto";
}

namespace {

// The lines of a stream, each kept to k_max_trace_line bytes. The stream is read in blocks and a line found
// with memchr: istream::getline's per-call sentry and per-character scan cost more than the parsers at a
// million lines a second.
class LineSplitter final : public TraceSplitter {
 public:
  LineSplitter(std::string name, std::unique_ptr<std::istream> in)
      : m_name(std::move(name)), m_in(std::move(in)), m_block(k_block) {}

  Result<bool> next(TraceUnit& out) override {
    out.text.clear();
    out.too_long = false;
    bool any = false;  // a byte of this line was read (its break counts: an empty line is a line)
    for (;;) {
      if (m_at == m_end && !refill()) {
        if (!any) return end();
        break;
      }
      any = true;
      const char* from = m_block.data() + m_at;
      const auto* nl = static_cast<const char*>(std::memchr(from, '\n', m_end - m_at));
      const std::size_t length = nl == nullptr ? m_end - m_at : static_cast<std::size_t>(nl - from);
      if (out.text.size() + length <= k_max_trace_line) {
        out.text.append(from, length);
      } else {
        out.too_long = true;
      }
      m_at += length;
      if (nl != nullptr) {
        ++m_at;
        break;
      }
    }
    ++m_line_no;
    out.line = out.number = m_line_no;
    if (!out.text.empty() && out.text.back() == '\r') out.text.pop_back();
    return true;
  }

  Result<void> rewind() override {
    m_in->clear();
    m_in->seekg(0);
    if (!m_in->good()) return runtime_error(fmt::format("{}: cannot read the trace again from its start", m_name));
    m_at = m_end = 0;
    m_line_no = 0;
    return {};
  }

 private:
  static constexpr std::size_t k_block = 256 * 1024;

  // The next block of the stream; false at its end (or a failed read, which end() reports).
  bool refill() {
    m_at = m_end = 0;
    if (!m_in->good()) return false;
    m_in->read(m_block.data(), static_cast<std::streamsize>(m_block.size()));
    m_end = static_cast<std::size_t>(m_in->gcount());
    return m_end > 0;
  }

  Result<bool> end() const {
    if (m_in->bad()) return runtime_error(fmt::format("{}: read failed after line {}", m_name, m_line_no));
    return false;
  }

  std::string m_name;
  std::unique_ptr<std::istream> m_in;
  std::vector<char> m_block;
  std::size_t m_at = 0, m_end = 0;  // the unread part of m_block
  std::uint64_t m_line_no = 0;
};

bool blank(std::string_view text) { return text.find_first_not_of(" \t") == std::string_view::npos; }

}  // namespace

std::unique_ptr<TraceSplitter> line_splitter(std::string name, std::unique_ptr<std::istream> in) {
  return std::make_unique<LineSplitter>(std::move(name), std::move(in));
}

TraceReader::TraceReader(std::string name, std::unique_ptr<std::istream> in,
                         std::unique_ptr<TraceLineParser> parser, bool skip_bad)
    : TraceReader(name, line_splitter(name, std::move(in)), std::move(parser), skip_bad) {}

TraceReader::TraceReader(std::string name, std::unique_ptr<TraceSplitter> splitter,
                         std::unique_ptr<TraceLineParser> parser, bool skip_bad)
    : m_name(std::move(name)), m_splitter(std::move(splitter)), m_parser(std::move(parser)), m_skip_bad(skip_bad) {}

Result<bool> TraceReader::next(TraceRecord& out) {
  while (OPENLOOP_TRY(m_splitter->next(m_unit))) {
    if (!m_unit.too_long && blank(m_unit.text)) continue;
    out.clear();
    out.line = m_unit.number;
    const std::string_view unit = m_splitter->unit_name();
    Result<ParsedUnit> parsed =
        m_unit.too_long ? Result<ParsedUnit>(usage_error(fmt::format(
                              "the {} is longer than {} bytes", unit.empty() ? "line" : unit,
                              unit.empty() ? k_max_trace_line : m_unit.text.size())))
                        : m_parser->parse(m_unit.text, out);
    if (parsed && *parsed == ParsedUnit::record) return true;
    const std::string place = unit.empty() ? fmt::format("{}:{}", m_name, m_unit.line)
                                           : fmt::format("{}:{}: {} {}", m_name, m_unit.line, unit, m_unit.number);
    if (parsed) {
      if (m_no_requests++ == 0) m_first_no_request = place;
      continue;
    }
    const std::string message = fmt::format("{}: {}", place, parsed.error().message);
    if (!m_skip_bad)
      return usage_error(message + fmt::format(" (--skip-bad counts and skips such {})",
                                               unit.empty() ? "lines" : "entries"));
    if (m_skipped++ == 0) m_first_skipped = message;
  }
  return false;
}

Result<void> TraceReader::rewind() { return m_splitter->rewind(); }

namespace {

// The format of a file whose format is to be detected: HAR by its name or its first key, JSONL by a first
// line that opens an object, else an nginx log. Reads the file's head and puts the stream back at its start.
Result<TraceFormat> detect_format(const TraceInput& input, std::istream& file) {
  if (input.path.size() > 4 && input.path.compare(input.path.size() - 4, 4, ".har") == 0) return TraceFormat::har;
  std::string head(4096, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));
  file.clear();
  file.seekg(0);
  if (looks_like_har(head)) return TraceFormat::har;
  const auto first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    return usage_error(fmt::format(
        "{}: the file holds no record (or its first 4 KiB are blank); give a JSONL trace, a HAR file or "
        "an access log, and --replay-format to name its format",
        input.path));
  }
  return head[first] == '{' ? TraceFormat::jsonl : TraceFormat::nginx;
}

Result<std::unique_ptr<TraceLineParser>> parser_for(TraceFormat format, const TraceInput& input) {
  switch (format) {
    case TraceFormat::jsonl: return std::make_unique<JsonlTraceParser>();
    case TraceFormat::har: return std::make_unique<HarEntryParser>();
    case TraceFormat::apache: return apache_trace_parser(input.log_format, input.seed, "--replay-log-format");
    case TraceFormat::nginx:
    case TraceFormat::automatic: break;
  }
  const std::string_view what = input.log_format.empty() ? "the combined log_format" : "--replay-log-format";
  auto compiled =
      OPENLOOP_TRY(NginxLogFormat::parse(input.log_format.empty() ? k_nginx_combined : input.log_format, what));
  return std::make_unique<NginxTraceParser>(OPENLOOP_TRY(NginxTraceParser::create(std::move(compiled), input.seed, what)));
}

}  // namespace

Result<TraceReader> open_trace(const TraceInput& input) {
  auto file = std::make_unique<std::ifstream>(input.path, std::ios::binary);
  if (!file->is_open()) {
    const int err = errno;
    return usage_error(fmt::format("{}: cannot open: {}", input.path, net::errno_text(err)));
  }
  const TraceFormat format =
      input.format == TraceFormat::automatic ? OPENLOOP_TRY(detect_format(input, *file)) : input.format;
  auto parser = OPENLOOP_TRY(parser_for(format, input));
  std::unique_ptr<TraceSplitter> splitter;
  if (format == TraceFormat::har) {
    splitter = std::make_unique<HarSplitter>(input.path, std::move(file));
  } else {
    splitter = line_splitter(input.path, std::move(file));
  }
  return TraceReader(input.path, std::move(splitter), std::move(parser), input.skip_bad);
}

}  // namespace openloop::workload
