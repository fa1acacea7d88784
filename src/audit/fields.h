// Splitting a delimited line into fields (RFC 4180 quotes) and reading numbers from them, and a header's
// columns found by name.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace openloop::audit {

/// Splits `line` at `separator` into `out` (cleared first). A field in double quotes may hold the separator
/// and doubled quotes ("" for "). Returns false for an unterminated quote.
bool split_fields(std::string_view line, char separator, std::vector<std::string>& out);

/// A number in plain decimal or exponent notation, the whole field; nullopt otherwise (empty, "NaN", "12ms").
std::optional<double> parse_number(std::string_view field);
/// An integer, the whole field; nullopt otherwise.
std::optional<long long> parse_integer(std::string_view field);

/// `value` × `unit_ns` nanoseconds into `out` (a stamp in ms: unit 1e6); false when it is negative or past
/// 9·10¹⁸ ns (the year 2255: room is left to add a response time without leaving a signed 64-bit count).
bool scaled_time(long long value, long long unit_ns, Nanos& out);
/// A duration of `seconds` into `out`; false unless 0 ≤ seconds ≤ 10⁶ (no response time a tool records is
/// longer, and a larger double would overflow the conversion).
bool duration_of(double seconds, Nanos& out);

/// An RFC 3339 time ("2017-05-09T14:34:45.239531499+02:00", "...Z", up to 9 fraction digits) as nanoseconds
/// since the Unix epoch; nullopt for anything else.
std::optional<long long> parse_rfc3339(std::string_view text);

/// Column positions in a header line, by name.
class Columns {
 public:
  explicit Columns(std::vector<std::string> header) : m_header(std::move(header)) {}
  /// Position of `name`, or nullopt.
  std::optional<std::size_t> find(std::string_view name) const;
  /// Positions of every name in `required`; when some are missing, a usage error naming the file, them and
  /// the header found (`what` says which format was expected, e.g. "a hey -o csv file").
  Result<std::vector<std::size_t>> require(const std::vector<std::string_view>& required,
                                           std::string_view path, std::string_view what) const;
  std::size_t size() const { return m_header.size(); }

 private:
  std::vector<std::string> m_header;
};

}  // namespace openloop::audit
