// An nginx log_format in nginx's own variable syntax ("$remote_addr - [$time_local] \"$request\""), compiled
// into literals and variables, and a log line split by it into the variables' values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::workload {

/// nginx's predefined "combined" format.
inline constexpr std::string_view k_nginx_combined =
    R"($remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent")";

/// A compiled log_format. Variables are `$name` or `${name}` (name: letters, digits, '_'); everything else is
/// literal text that a line must hold exactly. A variable's value runs to the first occurrence of the literal
/// after it (the last one to the end of the line) that no backslash escapes: nginx escapes '"' inside values
/// (as \x22, or \" with escape=json, as Apache does), so a quoted value ends at its closing quote. Immutable after parse(); thread-compatible.
class NginxLogFormat {
 public:
  /// Compiles `format`. Errors (usage), naming `what`: no variable, two variables with no literal between
  /// them (where one ends could not be told), a '$' without a name, an unclosed "${".
  static Result<NginxLogFormat> parse(std::string_view format, std::string_view what);

  /// Splits `line` into one value per variable (views into `line`, in the order of variables()). Error
  /// (usage): the literal text expected where the line differs (quoted, with what the line held there).
  Result<void> match(std::string_view line, std::vector<std::string_view>& values) const;

  /// The variables' names in order (without '$'); a name may repeat.
  const std::vector<std::string>& variables() const { return m_variables; }
  /// The index of the first variable called `name`, if the format has it.
  std::optional<std::size_t> find(std::string_view name) const;

 private:
  // m_literals[i] precedes variable i; m_literals.back() follows the last variable (size = variables + 1).
  std::vector<std::string> m_literals;
  std::vector<std::string> m_variables;
};

}  // namespace openloop::workload
