// hey's `-o csv` output read as records.
#include "audit/hey_reader.h"

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {

Result<std::unique_ptr<RecordReader>> HeyReader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<HeyReader> r(new HeyReader(std::move(lines)));
  std::string header;
  if (!r->m_lines.next(header))
    return usage_error(fmt::format("{}: is empty; expected hey -o csv output", path));
  std::vector<std::string> names;
  split_fields(header, ',', names);
  const Columns columns(std::move(names));
  const auto at =
      OPENLOOP_TRY(columns.require({"response-time", "offset", "status-code"}, path, "hey -o csv"));
  r->m_time = at[0];
  r->m_offset = at[1];
  r->m_status = at[2];
  r->m_width = columns.size();
  r->m_traits = ReaderTraits{"hey", false, Nanos(100'000), false, ToolModel::closed};
  return std::unique_ptr<RecordReader>(std::move(r));
}

Result<bool> HeyReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    split_fields(m_line, ',', m_fields);
    if (m_fields.size() < m_width) {
      m_lines.bad(fmt::format("{} fields; expected {} (response-time,...,offset)", m_fields.size(), m_width));
      continue;
    }
    const auto seconds = parse_number(m_fields[m_time]);
    const auto offset = parse_number(m_fields[m_offset]);
    const auto status = parse_integer(m_fields[m_status]);
    // An offset is seconds since the run's start: a run of 10⁶ s (11 days) is longer than any hey run.
    Nanos duration{0}, start{0};
    if (!seconds || !offset || !status || !duration_of(*seconds, duration) || !duration_of(*offset, start)) {
      m_lines.bad("response-time and offset must be seconds ≥ 0 and status-code an integer");
      continue;
    }
    out.start = start;
    out.duration = duration;
    out.thread.clear();
    out.ok = *status >= 200 && *status < 400;
    out.label.clear();
    return true;
  }
  return false;
}

}  // namespace openloop::audit
