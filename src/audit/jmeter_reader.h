// JMeter's CSV JTL (`jmeter -n -t plan.jmx -l results.jtl`, the default CSV with a header line;
// docs/audit.md#jmeter).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// Reads `timeStamp` (milliseconds since the epoch, at the send: JMeter's default
/// sampleresult.timestamp.start) and `elapsed` (ms), and where present `threadName`, `success` and `label`.
class JmeterReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }

 private:
  explicit JmeterReader(LineSource lines) : m_lines(std::move(lines)) {}
  LineSource m_lines;
  ReaderTraits m_traits;
  std::size_t m_stamp = 0, m_elapsed = 0, m_width = 0;
  std::optional<std::size_t> m_thread, m_success, m_label;
  std::string m_line;
  std::vector<std::string> m_fields;
};

}  // namespace openloop::audit
