// Checked reading of the JSON documents openloop writes (results, run checks, ramps, probes): one rule for
// what each kind of value is and one message for a value that is missing or of the wrong kind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace openloop::results {

/// A value in a document and its JSON pointer ("/intervals/3/counts"; "" for the root), for error messages.
struct JsonNode {
  const nlohmann::json* value = nullptr;
  std::string path;
};

/// What a value must be. A count is a non-negative integer: a JSON number without a fractional part, at most
/// 2^64 − 1 (and at most 2^53 when written with a fraction or an exponent, the integers a double holds
/// exactly). 3, 3.0 and 3e0 are the same count (JSON does not tell them apart, and tools such as jq may
/// rewrite one as another); -1, 2.5 and "3" are not counts. An integer may be negative.
enum class JsonKind : unsigned char { object, array, string, boolean, number, count, integer };

/// "an object", "a non-negative integer", ...: what an error says was expected.
std::string_view kind_name(JsonKind kind);
/// Whether `value` is of `kind` (the rules above).
bool is_kind(const nlohmann::json& value, JsonKind kind);

/// Typed access to one document. The rule for a missing field is one for every document: a required field
/// (field(), count(), number(), ...) that is absent is an error "SOURCE: PATH: missing (expected KIND)"; one
/// of the wrong kind "SOURCE: PATH: expected KIND, found TYPE". An optional field (the *_or() and
/// optional_*() calls) that is absent or null takes its stated default; present, it must be of its kind.
/// Every error is a usage error (exit 2) naming `source` (usually the file) and the JSON path. Holds `source`
/// by view: it must outlive the reader.
class JsonReader {
 public:
  explicit JsonReader(std::string_view source) : m_source(source) {}

  std::string_view source() const { return m_source; }
  /// The document's root, which must be an object (`what` names the document, e.g. "a results object").
  Result<JsonNode> root(const nlohmann::json& doc, std::string_view what) const;
  /// `node`'s "schema" string, which must be `expected` (else "PATH/schema: \"x\" is not \"expected\"").
  Result<void> expect_schema(const JsonNode& node, std::string_view expected) const;
  /// "SOURCE: PATH: what" as a usage error ("/" for the root's path).
  tl::unexpected<Error> fail(const std::string& path, std::string_view what) const;
  /// Present (null counts as present: has() is for telling old files from new ones, not for null values).
  bool has(const JsonNode& obj, std::string_view key) const;
  /// Present and not null.
  bool given(const JsonNode& obj, std::string_view key) const;

  /// The required field `key` of `obj`, of `kind`.
  Result<JsonNode> field(const JsonNode& obj, std::string_view key, JsonKind kind) const;
  /// The optional field `key`: nothing when absent or null.
  Result<std::optional<JsonNode>> optional_field(const JsonNode& obj, std::string_view key,
                                                 JsonKind kind) const;
  /// Element i (< size) of an array, and one that must be of `kind`.
  JsonNode element(const JsonNode& array, std::size_t i) const;
  Result<JsonNode> element(const JsonNode& array, std::size_t i, JsonKind kind) const;
  /// An array whose elements must all be strings; a required field, or an optional one (empty when absent).
  Result<std::vector<std::string>> strings(const JsonNode& obj, std::string_view key) const;
  Result<std::vector<std::string>> strings_or_empty(const JsonNode& obj, std::string_view key) const;

  Result<std::uint64_t> count(const JsonNode& obj, std::string_view key) const;
  Result<std::int64_t> integer(const JsonNode& obj, std::string_view key) const;
  Result<double> number(const JsonNode& obj, std::string_view key) const;
  Result<std::string> string(const JsonNode& obj, std::string_view key) const;
  Result<bool> boolean(const JsonNode& obj, std::string_view key) const;

  Result<std::uint64_t> count_or(const JsonNode& obj, std::string_view key, std::uint64_t fallback) const;
  Result<double> number_or(const JsonNode& obj, std::string_view key, double fallback) const;
  Result<std::string> string_or(const JsonNode& obj, std::string_view key, std::string fallback) const;
  Result<bool> boolean_or(const JsonNode& obj, std::string_view key, bool fallback) const;
  Result<std::optional<double>> optional_number(const JsonNode& obj, std::string_view key) const;
  Result<std::optional<std::int64_t>> optional_integer(const JsonNode& obj, std::string_view key) const;

  /// A count a value of `kind` count already passed is_kind() for.
  static std::uint64_t as_count(const nlohmann::json& value);

 private:
  std::string_view m_source;
};

}  // namespace openloop::results
