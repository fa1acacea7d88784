// `${VAR}` and `${VAR:-default}` in a plan file's text, from -e NAME=value definitions and the environment.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace openloop::workload {

/// Where ${NAME} takes its value: `defines` first (-e NAME=value, in order: a later one of the same name wins),
/// then the process environment when `environment` is true (tests turn it off).
struct TextVariables {
  std::vector<std::pair<std::string, std::string>> defines;
  bool environment = true;
  /// The value of NAME, or nullopt when neither a definition nor (if used) the environment has it.
  std::optional<std::string> lookup(std::string_view name) const;
};

/// Parses one "-e NAME=value" (the value may be empty or hold '='). Errors (usage) begin with `flag` and say
/// what is accepted: no '=', or NAME not [A-Za-z_][A-Za-z0-9_]*.
Result<std::pair<std::string, std::string>> parse_define(std::string_view arg, std::string_view flag);

/// Substitutes, anywhere in `text` (comments included; before the text is read as YAML):
///   ${NAME}            NAME's value; an error when NAME is unset
///   ${NAME:-default}   NAME's value, or `default` (the literal text up to the first '}') when NAME is unset or
///                      empty
///   $${                a literal "${" (nothing is substituted in it)
/// NAME is [A-Za-z_][A-Za-z0-9_]*; a '$' not followed by '{' stays as it is. Values are inserted as they are:
/// quote the YAML value when one may hold YAML syntax (": ", " #", a leading '{' or '['). Errors (usage)
/// begin "source:line:column: " (1-based, at the '$') and name the variable: unset without a default, a
/// malformed reference (bad name, no '}'), or a value holding a line break (it would move the file's lines
/// and every later message's position).
Result<std::string> substitute_variables(std::string_view text, std::string_view source,
                                         const TextVariables& variables);

}  // namespace openloop::workload
