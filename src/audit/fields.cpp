// Splitting delimited lines, reading numbers, finding a header's columns.
#include "audit/fields.h"

#include <charconv>
#include <cstdint>

#include <fmt/format.h>

namespace openloop::audit {

bool split_fields(std::string_view line, char separator, std::vector<std::string>& out) {
  out.clear();
  std::string field;
  bool quoted = false;
  bool at_start = true;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == '"' && at_start) {
      quoted = true;
      at_start = false;
    } else if (c == separator) {
      out.push_back(std::move(field));
      field.clear();
      at_start = true;
    } else {
      field += c;
      at_start = false;
    }
  }
  out.push_back(std::move(field));
  return !quoted;
}

std::optional<double> parse_number(std::string_view field) {
  if (field.empty()) return std::nullopt;
  if (field.front() == '+') field.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size() || !(v == v) || v > 1e300 || v < -1e300) {
    return std::nullopt;
  }
  return v;
}

bool scaled_time(long long value, long long unit_ns, Nanos& out) {
  // Up to 9·10¹⁸ ns (the year 2255), leaving room to add a response time without overflow.
  if (value < 0 || unit_ns <= 0 || value > 9'000'000'000'000'000'000LL / unit_ns) return false;
  out = Nanos(value * unit_ns);
  return true;
}

bool duration_of(double seconds, Nanos& out) {
  if (!(seconds >= 0 && seconds <= 1e6)) return false;
  out = from_seconds(seconds);
  return true;
}

std::optional<long long> parse_integer(std::string_view field) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return v;
}

namespace {

// Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
long long days_from_civil(long long y, long long m, long long d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<long long> digits(std::string_view text, std::size_t at, std::size_t n) {
  if (at + n > text.size()) return std::nullopt;
  long long v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

}  // namespace

std::optional<long long> parse_rfc3339(std::string_view t) {
  // YYYY-MM-DDTHH:MM:SS
  if (t.size() < 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') || t[13] != ':' ||
      t[16] != ':') {
    return std::nullopt;
  }
  const auto y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
  const auto h = digits(t, 11, 2), mi = digits(t, 14, 2), s = digits(t, 17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 ||
      *s > 60) {
    return std::nullopt;
  }
  std::size_t at = 19;
  long long fraction = 0;
  if (at < t.size() && t[at] == '.') {
    ++at;
    int n = 0;
    while (at < t.size() && t[at] >= '0' && t[at] <= '9') {
      if (n < 9) {
        fraction = fraction * 10 + (t[at] - '0');
        ++n;
      }
      ++at;
    }
    if (n == 0) return std::nullopt;
    for (; n < 9; ++n) fraction *= 10;
  }
  long long offset_s = 0;
  if (at < t.size() && (t[at] == 'Z' || t[at] == 'z')) {
    ++at;
  } else if (at + 6 == t.size() && (t[at] == '+' || t[at] == '-') && t[at + 3] == ':') {
    const auto oh = digits(t, at + 1, 2), om = digits(t, at + 4, 2);
    if (!oh || !om) return std::nullopt;
    offset_s = (*oh * 3600 + *om * 60) * (t[at] == '+' ? 1 : -1);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != t.size()) return std::nullopt;
  const long long seconds = days_from_civil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *s - offset_s;
  // Nanoseconds since the epoch fit a signed 64-bit count until 2262.
  if (seconds < 0 || seconds > 9'000'000'000LL) return std::nullopt;
  return seconds * 1'000'000'000LL + fraction;
}

std::optional<std::size_t> Columns::find(std::string_view name) const {
  for (std::size_t i = 0; i < m_header.size(); ++i) {
    if (m_header[i] == name) return i;
  }
  return std::nullopt;
}

Result<std::vector<std::size_t>> Columns::require(const std::vector<std::string_view>& required,
                                                  std::string_view path, std::string_view what) const {
  std::vector<std::size_t> positions;
  std::string missing;
  for (std::string_view name : required) {
    if (auto at = find(name)) {
      positions.push_back(*at);
    } else {
      missing += fmt::format("{}{}", missing.empty() ? "" : ", ", name);
    }
  }
  if (!missing.empty()) {
    std::string found;
    for (const auto& h : m_header) found += fmt::format("{}{}", found.empty() ? "" : ",", h);
    return usage_error(fmt::format("{}:1: read as {}, but its header lacks {} (header found: '{}')", path,
                                   what, missing, found.size() > 200 ? found.substr(0, 200) + "…" : found));
  }
  return positions;
}

}  // namespace openloop::audit
