// Reading a YAML document with positions: every error says file:line:column, the key path, what was found and
// what is accepted. Internal to the scenario-file loader.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/error.h"

namespace openloop::workload::yaml {

/// The file being read: names positions in errors.
class Doc {
 public:
  explicit Doc(std::string file) : m_file(std::move(file)) {}
  /// "file:line:column: path" (1-based line and column), the prefix of every message about `node`.
  std::string where(const YAML::Node& node, std::string_view path) const;
  std::string where(const YAML::Mark& mark, std::string_view path) const;
  /// A usage error "file:line:column: path: message".
  tl::unexpected<Error> error(const YAML::Node& node, std::string_view path, std::string_view message) const;
  const std::string& file() const { return m_file; }

 private:
  std::string m_file;
};

/// What kind of YAML value a node is, for messages: "a mapping", "a list", "a value", "nothing".
std::string_view describe_kind(const YAML::Node& node);

/// A value at a key path, with the mark to blame: the value's own, or its key's when the value is empty.
struct Field {
  std::string path;  ///< e.g. "scenarios.browse.rate"
  YAML::Node node;
  YAML::Mark mark;      ///< where to blame the value
  YAML::Mark key_mark;  ///< where its key is (the mapping's own position for a document or list item)
};

/// A YAML mapping read strictly: every key a plain value, none repeated, none outside the accepted set.
class Fields {
 public:
  /// Reads `field` as a mapping (its path is "" for the document). `accepted` lists the keys allowed; `kind`
  /// names the thing in messages ("a request", "a scenario"). Errors: not a mapping (found a list, a value or
  /// nothing), a key that is not a plain value, a repeated key, an unknown key (the message lists
  /// `accepted`).
  static Result<Fields> read(const Doc& doc, const Field& field,
                             std::initializer_list<std::string_view> accepted, std::string_view kind);
  /// Reads a mapping whose keys are names chosen by the user (requests, scenarios, variables, headers).
  static Result<Fields> read_named(const Doc& doc, const Field& field, std::string_view kind);

  /// The field for `key`, or null when the key is absent.
  const Field* find(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }
  /// The entries in file order: key and field.
  const std::vector<std::pair<std::string, Field>>& entries() const { return m_entries; }
  /// The mapping's own position and path, to blame for a missing key.
  const Field& self() const { return m_self; }

 private:
  Field m_self;
  std::vector<std::pair<std::string, Field>> m_entries;
};

/// The text of a single plain value. Error when the field holds a mapping, a list or nothing; `accepted` ends
/// the message ("use e.g. 500/s").
Result<std::string> scalar(const Doc& doc, const Field& field, std::string_view accepted);
/// A whole number in [min, max]; the error quotes the text and the range.
Result<std::uint64_t> whole_number(const Doc& doc, const Field& field, std::uint64_t min, std::uint64_t max);
/// A finite number above 0.
Result<double> positive_number(const Doc& doc, const Field& field, std::string_view accepted);
/// A variable name: letters, digits and _, not starting with a digit.
bool is_identifier(std::string_view s);
/// "file:line:column: path" for the field, the `what` argument of the core parsers.
std::string where(const Doc& doc, const Field& field);

}  // namespace openloop::workload::yaml
