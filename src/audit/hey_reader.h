// hey's `-o csv` output: one line per successful response, in completion order (docs/audit.md#hey).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// Reads `response-time` and `offset` (seconds since the run's start, at the send) and `status-code`. hey
/// names no worker: records come with an empty thread.
class HeyReader : public RecordReader {
 public:
  /// Opens `path` and checks its header; a usage error names the file and the columns missing.
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }

 private:
  explicit HeyReader(LineSource lines) : m_lines(std::move(lines)) {}
  LineSource m_lines;
  ReaderTraits m_traits;
  std::size_t m_time = 0, m_offset = 0, m_status = 0, m_width = 0;
  std::string m_line;
  std::vector<std::string> m_fields;
};

}  // namespace openloop::audit
