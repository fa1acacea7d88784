// Substituting ${VAR} references in a plan file's text, with exact positions in every error.
#include "workload/env_substitution.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

bool is_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

constexpr std::string_view k_forms = "write ${NAME} or ${NAME:-default}, or $${ for a literal ${";

}  // namespace

std::optional<std::string> TextVariables::lookup(std::string_view name) const {
  for (auto it = defines.rbegin(); it != defines.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  if (!environment) return std::nullopt;
  const std::string key(name);
  if (const char* value = std::getenv(key.c_str())) return std::string(value);
  return std::nullopt;
}

Result<std::pair<std::string, std::string>> parse_define(std::string_view arg, std::string_view flag) {
  const auto eq = arg.find('=');
  const std::string_view name = arg.substr(0, eq);
  if (eq == std::string_view::npos || !is_name(name)) {
    return usage_error(fmt::format(
        "{} '{}': {}; use NAME=value (NAME: letters, digits and _, not starting with a digit), e.g. {} "
        "TARGET=http://127.0.0.1:8080",
        flag, arg, eq == std::string_view::npos ? "no '=' found" : "not a variable name before '='", flag));
  }
  return std::pair{std::string(name), std::string(arg.substr(eq + 1))};
}

Result<std::string> substitute_variables(std::string_view text, std::string_view source,
                                         const TextVariables& variables) {
  std::string out;
  out.reserve(text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    if (c != '$') {
      out += c;
      ++i;
      continue;
    }
    if (text.compare(i, 3, "$${") == 0) {  // the escape: a literal "${"
      out += "${";
      i += 3;
      continue;
    }
    if (i + 1 >= text.size() || text[i + 1] != '{') {
      out += c;
      ++i;
      continue;
    }
    const std::string at = fmt::format("{}:{}:{}", source, line, i - line_start + 1);
    const auto close = text.find_first_of("}\n", i + 2);
    if (close == std::string_view::npos || text[close] != '}') {
      return usage_error(fmt::format("{}: \"{}\" has no closing '}}' on its line; {}", at,
                                     text.substr(i, std::min<std::size_t>(20, text.find('\n', i) - i)),
                                     k_forms));
    }
    const std::string_view inner = text.substr(i + 2, close - i - 2);
    const auto dash = inner.find(":-");
    const std::string_view name = inner.substr(0, dash);
    if (!is_name(name)) {
      return usage_error(
          fmt::format("{}: \"${{{}}}\" does not name a variable (letters, digits and _, not starting with a "
                      "digit); {}",
                      at, inner, k_forms));
    }
    std::optional<std::string> value = variables.lookup(name);
    if (dash != std::string_view::npos && (!value || value->empty())) {
      value = std::string(inner.substr(dash + 2));
    }
    if (!value) {
      return usage_error(
          fmt::format("{}: ${{{}}}: the variable {} is not set; set it in the environment or with -e {}=VALUE, "
                      "or give a default: ${{{}:-VALUE}}",
                      at, name, name, name, name));
    }
    if (value->find_first_of("\r\n") != std::string::npos) {
      return usage_error(
          fmt::format("{}: ${{{}}}: its value holds a line break; a substituted value is one line of text",
                      at, name));
    }
    out += *value;
    i = close + 1;
  }
  return out;
}

}  // namespace openloop::workload
