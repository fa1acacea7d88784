// k6's `--out csv=FILE` rows: the `http_req_duration` samples, with the VU where k6 was asked to keep it
// (docs/audit.md#k6).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// A k6 CSV `timestamp` in any of its timeFormats (unix, unix_milli, unix_micro, unix_nano: told apart by the
/// number of digits; rfc3339, rfc3339_nano) as nanoseconds since the epoch, with the stamp's resolution;
/// nullopt for anything else.
struct K6Stamp {
  long long ns = 0;
  Nanos resolution{0};
};
std::optional<K6Stamp> parse_k6_stamp(std::string_view text);

/// Reads the header (`metric_name,timestamp,metric_value,` then the indexed system tags, `extra_tags`,
/// `metadata`) and the rows of `http_req_duration`: the send is timestamp − value (k6 stamps an HTTP
/// request's samples with its end), value in ms, `status` / `expected_response` for success, `name` for the
/// label. The sender is `vu` (with `scenario`): a column in k6 versions that indexed it, else `vu=N` in
/// `metadata` (k6 keeps vu and iter there, and only with `--system-tags` naming them) or `extra_tags`. With
/// whole-second stamps (timeFormat unix, the default; rfc3339) sends cannot be ordered within a VU, so
/// records are pooled (no sender) and a note says why. `dropped_iterations` rows are counted.
class K6CsvReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_lines.bad_lines(); }
  std::vector<std::string> notes() const override;

 private:
  explicit K6CsvReader(LineSource lines) : m_lines(std::move(lines)) {}
  std::string tag(std::string_view name) const;

  LineSource m_lines;
  ReaderTraits m_traits;
  std::size_t m_metric = 0, m_stamp = 0, m_value = 0, m_width = 0;
  std::optional<std::size_t> m_vu, m_scenario, m_status, m_expected, m_name, m_metadata, m_extra;
  bool m_pool = false;  ///< whole-second stamps: no sender
  bool m_saw_vu = false;
  std::string m_line;
  std::vector<std::string> m_fields;
  double m_dropped = 0;
};

}  // namespace openloop::audit
