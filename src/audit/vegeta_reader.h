// Vegeta's results as `vegeta encode --to json` (one object a line) or `--to csv` (no header) writes them
// (docs/audit.md#vegeta).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// JSON: `timestamp` (RFC 3339, the send), `latency` (ns), `code`, `error`, `url`, `seq` (the send's number
/// in the pacer's schedule). CSV: timestamp (Unix ns), code, latency (ns), bytes out, bytes in, error, body,
/// attack, seq, method, url, headers. Vegeta sends on its own schedule (an open model) with no sender:
/// records come with an empty thread.
class VegetaReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }

 private:
  explicit VegetaReader(LineSource lines) : m_lines(std::move(lines)) {}
  bool read_json(Record& out);
  bool read_csv(Record& out);
  LineSource m_lines;
  ReaderTraits m_traits;
  std::string m_line;
  std::vector<std::string> m_fields;
};

}  // namespace openloop::audit
