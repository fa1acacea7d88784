// Strict, positioned reading of YAML mappings and values for the scenario-file loader.
#include "workload/yaml_fields.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace openloop::workload::yaml {
namespace {

std::string join_path(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
}

YAML::Mark blame(const YAML::Node& value, const YAML::Mark& key_mark) {
  const YAML::Mark m = value.Mark();
  return (value.IsNull() || m.is_null()) ? key_mark : m;
}

Result<std::vector<std::pair<std::string, Field>>> entries_of(const Doc& doc, const Field& self,
                                                              std::string_view kind) {
  if (!self.node.IsMap()) {
    return usage_error(fmt::format("{}: found {}; {} is a mapping of key: value lines",
                                   doc.where(self.mark, self.path), describe_kind(self.node), kind));
  }
  std::vector<std::pair<std::string, Field>> out;
  for (auto it = self.node.begin(); it != self.node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      return doc.error(key, self.path,
                       fmt::format("found {} as a key; keys are plain names", describe_kind(key)));
    }
    const std::string name = key.Scalar();
    const bool repeated = std::any_of(out.begin(), out.end(), [&](const auto& e) { return e.first == name; });
    if (repeated)
      return doc.error(key, self.path, fmt::format("\"{}\" is given twice; give each key once", name));
    out.emplace_back(
        name, Field{join_path(self.path, name), it->second, blame(it->second, key.Mark()), key.Mark()});
  }
  return out;
}

}  // namespace

std::string Doc::where(const YAML::Mark& mark, std::string_view path) const {
  const int line = mark.is_null() ? 1 : mark.line + 1;
  const int column = mark.is_null() ? 1 : mark.column + 1;
  if (path.empty()) return fmt::format("{}:{}:{}", m_file, line, column);
  return fmt::format("{}:{}:{}: {}", m_file, line, column, path);
}

std::string Doc::where(const YAML::Node& node, std::string_view path) const {
  return where(node.Mark(), path);
}

tl::unexpected<Error> Doc::error(const YAML::Node& node, std::string_view path,
                                 std::string_view message) const {
  return usage_error(fmt::format("{}: {}", where(node, path), message));
}

std::string_view describe_kind(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a mapping";
  if (node.IsSequence()) return "a list";
  return "a value";
}

Result<Fields> Fields::read(const Doc& doc, const Field& field,
                            std::initializer_list<std::string_view> accepted, std::string_view kind) {
  Fields f;
  f.m_self = field;
  f.m_entries = OPENLOOP_TRY(entries_of(doc, f.m_self, kind));
  for (const auto& [key, entry] : f.m_entries) {
    if (std::find(accepted.begin(), accepted.end(), key) != accepted.end()) continue;
    const std::string at = doc.where(entry.key_mark, f.m_self.path);
    return usage_error(
        fmt::format("{}: unknown key \"{}\"; {} accepts {}", at, key, kind, fmt::join(accepted, ", ")));
  }
  return f;
}

Result<Fields> Fields::read_named(const Doc& doc, const Field& field, std::string_view kind) {
  Fields f;
  f.m_self = field;
  f.m_entries = OPENLOOP_TRY(entries_of(doc, f.m_self, kind));
  return f;
}

const Field* Fields::find(std::string_view key) const {
  for (const auto& [name, field] : m_entries) {
    if (name == key) return &field;
  }
  return nullptr;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

std::string where(const Doc& doc, const Field& field) {
  return doc.where(field.mark, field.path);
}

Result<std::string> scalar(const Doc& doc, const Field& field, std::string_view accepted) {
  if (field.node.IsScalar()) return field.node.Scalar();
  return usage_error(fmt::format("{}: found {}; {}", where(doc, field), describe_kind(field.node), accepted));
}

Result<std::uint64_t> whole_number(const Doc& doc, const Field& field, std::uint64_t min, std::uint64_t max) {
  const std::string accepted = fmt::format("use a whole number from {} to {}", min, max);
  const std::string text = OPENLOOP_TRY(scalar(doc, field, accepted));
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min || value > max) {
    return usage_error(fmt::format("{}: \"{}\" is not accepted; {}", where(doc, field), text, accepted));
  }
  return value;
}

Result<double> positive_number(const Doc& doc, const Field& field, std::string_view accepted) {
  const std::string text = OPENLOOP_TRY(scalar(doc, field, accepted));
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value) ||
      value <= 0) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a number above 0; {}", where(doc, field), text, accepted));
  }
  return value;
}

}  // namespace openloop::workload::yaml
