// ApacheBench's `-g` gnuplot TSV: one line per request, its start to the second (docs/audit.md#ab).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// Reads `seconds` (the send, Unix seconds) and `ttime` (total milliseconds). ab names no worker and stamps
/// starts to the second, so senders cannot be reconstructed: records come with an empty thread.
class AbReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }

 private:
  explicit AbReader(LineSource lines) : m_lines(std::move(lines)) {}
  LineSource m_lines;
  ReaderTraits m_traits;
  std::size_t m_seconds = 0, m_total = 0, m_width = 0;
  std::string m_line;
  std::vector<std::string> m_fields;
};

}  // namespace openloop::audit
