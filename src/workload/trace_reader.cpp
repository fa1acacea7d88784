// Trace files read line by line (workload/trace_reader.h).
#include "workload/trace_reader.h"

#include <cerrno>
#include <fstream>

#include <fmt/format.h>

#include "net/errno_text.h"
#include "workload/jsonl_trace.h"
#include "workload/nginx_trace.h"

namespace openloop::workload {

Result<TraceFormat> parse_trace_format(std::string_view text, std::string_view what) {
  if (text == "auto") return TraceFormat::automatic;
  if (text == "jsonl") return TraceFormat::jsonl;
  if (text == "nginx") return TraceFormat::nginx;
  return usage_error(fmt::format("{}: \"{}\" is not a trace format; use auto, nginx or jsonl", what, text));
}

std::string_view to_string(TraceFormat format) {
  switch (format) {
    case TraceFormat::automatic: return "auto";
    case TraceFormat::jsonl: return "jsonl";
    case TraceFormat::nginx: return "nginx";
  }
  return "auto";
}

TraceReader::TraceReader(std::string name, std::unique_ptr<std::istream> in,
                         std::unique_ptr<TraceLineParser> parser, bool skip_bad)
    : m_name(std::move(name)), m_in(std::move(in)), m_parser(std::move(parser)), m_skip_bad(skip_bad) {}

bool TraceReader::read_line() {
  m_line.clear();
  m_too_long = false;
  if (!m_in->good()) return false;
  // Read in chunks, keeping at most k_max_trace_line bytes of the line: a huge line costs no more memory.
  char chunk[8192];
  bool any = false;
  for (;;) {
    m_in->getline(chunk, sizeof chunk);
    const auto got = static_cast<std::size_t>(m_in->gcount());
    any = any || got > 0;
    const bool cut = m_in->fail() && !m_in->eof() && got == sizeof chunk - 1;
    const std::size_t text = cut ? got : (got > 0 && !m_in->eof() ? got - 1 : got);
    if (m_line.size() + text <= k_max_trace_line) {
      m_line.append(chunk, text);
    } else {
      m_too_long = true;
    }
    if (!cut) break;
    m_in->clear();  // the chunk filled before the line ended: keep reading it
  }
  if (!any && m_in->eof()) return false;
  ++m_line_no;
  if (!m_line.empty() && m_line.back() == '\r') m_line.pop_back();
  return true;
}

Result<bool> TraceReader::next(TraceRecord& out) {
  while (read_line()) {
    if (m_line.find_first_not_of(" \t") == std::string::npos && !m_too_long) continue;
    out.clear();
    out.line = m_line_no;
    Result<void> parsed = m_too_long ? Result<void>(usage_error(fmt::format(
                                           "the line is longer than {} bytes", k_max_trace_line)))
                                     : m_parser->parse(m_line, out);
    if (parsed) return true;
    const std::string message = fmt::format("{}:{}: {}", m_name, m_line_no, parsed.error().message);
    if (!m_skip_bad) return usage_error(message + " (--skip-bad counts and skips such lines)");
    if (m_skipped++ == 0) m_first_skipped = message;
  }
  if (m_in->bad()) return runtime_error(fmt::format("{}: read failed after line {}", m_name, m_line_no));
  return false;
}

Result<void> TraceReader::rewind() {
  m_in->clear();
  m_in->seekg(0);
  if (!m_in->good()) return runtime_error(fmt::format("{}: cannot read the trace again from its start", m_name));
  m_line_no = 0;
  return {};
}

Result<TraceReader> open_trace(const TraceInput& input) {
  auto file = std::make_unique<std::ifstream>(input.path, std::ios::binary);
  if (!file->is_open()) {
    const int err = errno;
    return usage_error(fmt::format("--replay {}: cannot open: {}", input.path, net::errno_text(err)));
  }
  TraceFormat format = input.format;
  if (format == TraceFormat::automatic) {
    std::string line;
    while (std::getline(*file, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos)
      return usage_error(fmt::format("--replay {}: the file holds no record; give a JSONL trace or an nginx log",
                                     input.path));
    format = line[first] == '{' ? TraceFormat::jsonl : TraceFormat::nginx;
    file->clear();
    file->seekg(0);
  }
  std::unique_ptr<TraceLineParser> parser;
  if (format == TraceFormat::jsonl) {
    parser = std::make_unique<JsonlTraceParser>();
  } else {
    const std::string_view what = input.log_format.empty() ? "the combined log_format" : "--replay-log-format";
    auto compiled = OPENLOOP_TRY(
        NginxLogFormat::parse(input.log_format.empty() ? k_nginx_combined : input.log_format, what));
    parser = std::make_unique<NginxTraceParser>(
        OPENLOOP_TRY(NginxTraceParser::create(std::move(compiled), input.seed, what)));
  }
  return TraceReader(input.path, std::move(file), std::move(parser), input.skip_bad);
}

}  // namespace openloop::workload
