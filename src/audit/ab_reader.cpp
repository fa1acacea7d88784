// ApacheBench's `-g` TSV read as records.
#include "audit/ab_reader.h"

#include <fmt/format.h>

#include "audit/fields.h"

namespace openloop::audit {

Result<std::unique_ptr<RecordReader>> AbReader::open(const std::string& path) {
  LineSource lines = OPENLOOP_TRY(LineSource::open(path));
  std::unique_ptr<AbReader> r(new AbReader(std::move(lines)));
  std::string header;
  if (!r->m_lines.next(header)) return usage_error(fmt::format("{}: is empty; expected ab -g output", path));
  std::vector<std::string> names;
  split_fields(header, '\t', names);
  const Columns columns(std::move(names));
  const auto at = OPENLOOP_TRY(columns.require({"seconds", "ttime"}, path, "ab -g (tab-separated)"));
  r->m_seconds = at[0];
  r->m_total = at[1];
  r->m_width = columns.size();
  r->m_traits = ReaderTraits{"ab", false, Nanos(1'000'000'000), false, ToolModel::closed};
  return std::unique_ptr<RecordReader>(std::move(r));
}

Result<bool> AbReader::next(Record& out) {
  while (m_lines.next(m_line)) {
    if (m_line.empty()) continue;
    split_fields(m_line, '\t', m_fields);
    if (m_fields.size() < m_width) {
      m_lines.bad(
          fmt::format("{} tab-separated fields; expected {} (starttime, seconds, ctime, dtime, ttime, wait)",
                      m_fields.size(), m_width));
      continue;
    }
    const auto seconds = parse_integer(m_fields[m_seconds]);
    const auto total_ms = parse_number(m_fields[m_total]);
    Nanos start{0}, duration{0};
    if (!seconds || !total_ms || !scaled_time(*seconds, 1'000'000'000, start) ||
        !duration_of(*total_ms / 1e3, duration)) {
      m_lines.bad("seconds must be Unix seconds and ttime milliseconds ≥ 0");
      continue;
    }
    out.start = start;
    out.duration = duration;
    out.thread.clear();
    out.ok = true;
    out.label.clear();
    return true;
  }
  return false;
}

}  // namespace openloop::audit
