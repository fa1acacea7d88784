// k6's `--out json=FILE` lines: the `http_req_duration` points, with their `vu` tag where k6 was asked for it
// (docs/audit.md#k6).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "audit/record_reader.h"

namespace openloop::audit {

/// Reads `{"type":"Point","metric":"http_req_duration","data":{"time":RFC 3339,"value":ms,"tags":{...}}}`.
/// k6 stamps an HTTP request's samples with the request's end, so the send is time − value. The sender is the
/// `vu` tag, or `data.metadata.vu` (k6 0.41+ keeps vu as metadata), with the `scenario` tag when present;
/// without it (vu is not a default system tag) records come with an empty thread. `dropped_iterations` points
/// are counted (an arrival-rate executor that could not start an iteration on time); other lines are skipped.
class K6Reader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }
  std::vector<std::string> notes() const override;

 private:
  explicit K6Reader(LineSource lines) : m_lines(std::move(lines)) {}
  LineSource m_lines;
  ReaderTraits m_traits;
  std::string m_line;
  double m_dropped = 0;
  std::int64_t m_points = 0;
};

}  // namespace openloop::audit
