// JMeter's CSV JTL read as records.
#include "audit/jmeter_reader.h"

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {

Result<std::unique_ptr<RecordReader>> JmeterReader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<JmeterReader> r(new JmeterReader(std::move(lines)));
  std::string header;
  if (!r->m_lines.next(header))
    return usage_error(fmt::format("{}: is empty; expected a JMeter CSV JTL", path));
  std::vector<std::string> names;
  split_fields(header, ',', names);
  const Columns columns(std::move(names));
  const auto at = OPENLOOP_TRY(columns.require(
      {"timeStamp", "elapsed"}, path,
      "a JMeter CSV JTL (jmeter.save.saveservice.print_field_names=true, timestamp_format=ms)"));
  r->m_stamp = at[0];
  r->m_elapsed = at[1];
  r->m_thread = columns.find("threadName");
  r->m_success = columns.find("success");
  r->m_label = columns.find("label");
  r->m_width = columns.size();
  r->m_traits = ReaderTraits{"JMeter", r->m_thread.has_value(), Nanos(1'000'000), false, ToolModel::closed};
  return std::unique_ptr<RecordReader>(std::move(r));
}

Result<bool> JmeterReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    if (!split_fields(m_line, ',', m_fields) || m_fields.size() != m_width) {
      m_lines.bad(fmt::format("{} fields; expected {} as the header names", m_fields.size(), m_width));
      continue;
    }
    const auto stamp = parse_integer(m_fields[m_stamp]);
    const auto elapsed = parse_number(m_fields[m_elapsed]);
    Nanos start{0}, duration{0};
    if (!stamp || !elapsed || !scaled_time(*stamp, 1'000'000, start) ||
        !duration_of(*elapsed / 1e3, duration)) {
      m_lines.bad(fmt::format("timeStamp '{}' and elapsed '{}': expected milliseconds (timestamp_format=ms)",
                              m_fields[m_stamp], m_fields[m_elapsed]));
      continue;
    }
    out.start = start;
    out.duration = duration;
    out.thread = m_thread ? m_fields[*m_thread] : std::string();
    out.ok = m_success ? m_fields[*m_success] == "true" : true;
    out.label = m_label ? m_fields[*m_label] : std::string();
    return true;
  }
  return false;
}

}  // namespace openloop::audit
