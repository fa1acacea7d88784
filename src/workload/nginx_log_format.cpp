// nginx log_format compiled and matched (workload/nginx_log_format.h).
#include "workload/nginx_log_format.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// What the line holds at `at`, for an error message: a short quoted excerpt.
std::string excerpt(std::string_view line, std::size_t at) {
  if (at >= line.size()) return "the end of the line";
  return fmt::format("\"{}\"", line.substr(at, 24));
}

// The first `literal` at or after `at` that no backslash escapes (nginx's escape=json and Apache write a quote
// inside a value as \"; nginx's default escaping writes \x22 and never leaves a bare backslash).
std::size_t find_unescaped(std::string_view line, std::string_view literal, std::size_t at) {
  for (std::size_t end = line.find(literal, at); end != std::string_view::npos; end = line.find(literal, end + 1)) {
    std::size_t slashes = 0;
    while (end - slashes > at && line[end - slashes - 1] == '\\') ++slashes;
    if (slashes % 2 == 0) return end;
  }
  return std::string_view::npos;
}

}  // namespace

Result<NginxLogFormat> NginxLogFormat::parse(std::string_view format, std::string_view what) {
  NginxLogFormat f;
  std::string literal;
  for (std::size_t i = 0; i < format.size();) {
    if (format[i] != '$') {
      literal.push_back(format[i++]);
      continue;
    }
    std::string name;
    if (i + 1 < format.size() && format[i + 1] == '{') {
      const auto close = format.find('}', i + 2);
      if (close == std::string_view::npos)
        return usage_error(fmt::format("{}: \"${{\" at column {} is not closed by '}}'", what, i + 1));
      name = std::string(format.substr(i + 2, close - i - 2));
      i = close + 1;
    } else {
      std::size_t j = i + 1;
      while (j < format.size() && name_char(format[j])) ++j;
      name = std::string(format.substr(i + 1, j - i - 1));
      i = j;
    }
    if (name.empty() || !std::all_of(name.begin(), name.end(), name_char))
      return usage_error(fmt::format("{}: '$' at column {} is not followed by a variable name", what, i));
    if (!f.m_variables.empty() && literal.empty()) {
      return usage_error(fmt::format(
          "{}: ${} follows ${} with nothing between them; put a separator (a space, a quote) between "
          "variables so a line can be split",
          what, name, f.m_variables.back()));
    }
    f.m_literals.push_back(std::move(literal));
    literal.clear();
    f.m_variables.push_back(std::move(name));
  }
  f.m_literals.push_back(std::move(literal));
  if (f.m_variables.empty())
    return usage_error(fmt::format("{}: no $variable; give the log_format in nginx's syntax, e.g. '{}'", what,
                                   k_nginx_combined));
  return f;
}

std::optional<std::size_t> NginxLogFormat::find(std::string_view name) const {
  for (std::size_t i = 0; i < m_variables.size(); ++i)
    if (m_variables[i] == name) return i;
  return std::nullopt;
}

Result<void> NginxLogFormat::match(std::string_view line, std::vector<std::string_view>& values) const {
  values.clear();
  std::size_t at = 0;
  const std::string& head = m_literals.front();
  if (line.substr(0, head.size()) != head)
    return usage_error(fmt::format("expected \"{}\" at the start of the line, found {}", head, excerpt(line, 0)));
  at = head.size();
  for (std::size_t v = 0; v < m_variables.size(); ++v) {
    const std::string& after = m_literals[v + 1];
    const bool last = v + 1 == m_variables.size();
    if (last && after.empty()) {
      values.push_back(line.substr(at));
      return {};
    }
    // The last literal must end the line: search it from the end, so a value may hold its text.
    const std::size_t end = last ? line.rfind(after) : find_unescaped(line, after, at);
    if (end == std::string_view::npos || end < at || (last && end + after.size() != line.size())) {
      return usage_error(fmt::format("expected \"{}\" after ${} (column {}), found {}", after, m_variables[v],
                                     at + 1, excerpt(line, at)));
    }
    values.push_back(line.substr(at, end - at));
    at = end + after.size();
  }
  return {};
}

}  // namespace openloop::workload
