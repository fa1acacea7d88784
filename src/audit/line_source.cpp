// A results file read line by line, counting lines and keeping the first bad one.
#include "audit/line_source.h"

#include <fmt/format.h>

namespace openloop::audit {

Result<LineSource> LineSource::open(const std::string& path) {
  LineSource s;
  s.m_path = path;
  s.m_in.open(path, std::ios::binary);
  if (!s.m_in) return usage_error(fmt::format("{}: cannot be read (no such file, or no permission)", path));
  return s;
}

bool LineSource::next(std::string& line) {
  if (!std::getline(m_in, line)) return false;
  ++m_line;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void LineSource::bad(std::string_view what) {
  if (m_bad.count++ == 0) m_bad.first = where(what);
}

std::string LineSource::where(std::string_view what) const {
  return fmt::format("{}:{}: {}", m_path, m_line, what);
}

}  // namespace openloop::audit
