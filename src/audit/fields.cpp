// Splitting delimited lines, reading numbers, finding a header's columns.
#include "audit/fields.h"

#include <charconv>

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

std::optional<long long> parse_integer(std::string_view field) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (field.empty() || ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return v;
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
    return usage_error(fmt::format("{}:1: read as {}, but its header lacks {} (header found: '{}')", path, what,
                                   missing, found.size() > 200 ? found.substr(0, 200) + "…" : found));
  }
  return positions;
}

}  // namespace openloop::audit
