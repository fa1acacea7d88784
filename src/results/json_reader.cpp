// Checked JSON access: the kinds of value, and the one message for a missing or mistyped field.
#include "results/json_reader.h"

#include <cmath>

#include <fmt/format.h>

namespace openloop::results {

using nlohmann::json;

namespace {
// 2^53: the integers above it are not all representable in a double, so a count written with a fraction or an
// exponent is only trusted up to it.
constexpr double k_exact_double_integers = 9007199254740992.0;

// What was found instead: a number as written (-1, 2.5), anything else by its type ("string", "null").
std::string found(const json& value) {
  return value.is_number() ? value.dump() : value.type_name();
}
}  // namespace

std::string_view kind_name(JsonKind kind) {
  switch (kind) {
    case JsonKind::object:
      return "an object";
    case JsonKind::array:
      return "an array";
    case JsonKind::string:
      return "a string";
    case JsonKind::boolean:
      return "true or false";
    case JsonKind::number:
      return "a number";
    case JsonKind::count:
      return "a non-negative integer";
    case JsonKind::integer:
      return "an integer";
  }
  return "a value";
}

bool is_kind(const json& value, JsonKind kind) {
  switch (kind) {
    case JsonKind::object:
      return value.is_object();
    case JsonKind::array:
      return value.is_array();
    case JsonKind::string:
      return value.is_string();
    case JsonKind::boolean:
      return value.is_boolean();
    case JsonKind::number:
      return value.is_number();
    case JsonKind::count:
      if (value.is_number_unsigned()) return true;
      if (value.is_number_integer()) return value.get<std::int64_t>() >= 0;
      if (value.is_number_float()) {
        const double v = value.get<double>();
        return v >= 0 && v <= k_exact_double_integers && std::floor(v) == v;
      }
      return false;
    case JsonKind::integer:
      if (value.is_number_integer())
        return !value.is_number_unsigned() || value.get<std::uint64_t>() <= INT64_MAX;
      if (value.is_number_float()) {
        const double v = value.get<double>();
        return std::abs(v) <= k_exact_double_integers && std::floor(v) == v;
      }
      return false;
  }
  return false;
}

std::uint64_t JsonReader::as_count(const json& value) {
  return value.is_number_float() ? static_cast<std::uint64_t>(value.get<double>())
                                 : value.get<std::uint64_t>();
}

namespace {
std::int64_t as_integer(const json& value) {
  return value.is_number_float() ? static_cast<std::int64_t>(value.get<double>()) : value.get<std::int64_t>();
}
}  // namespace

Result<JsonNode> JsonReader::root(const json& doc, std::string_view what) const {
  if (!doc.is_object()) return fail("", fmt::format("expected {}, found {}", what, found(doc)));
  return JsonNode{&doc, ""};
}

Result<void> JsonReader::expect_schema(const JsonNode& node, std::string_view expected) const {
  const std::string schema = OPENLOOP_TRY(string(node, "schema"));
  if (schema != expected)
    return fail(node.path + "/schema", fmt::format("\"{}\" is not \"{}\"", schema, expected));
  return {};
}

tl::unexpected<Error> JsonReader::fail(const std::string& path, std::string_view what) const {
  return usage_error(fmt::format("{}: {}: {}", m_source, path.empty() ? "/" : path, what));
}

bool JsonReader::has(const JsonNode& obj, std::string_view key) const {
  return obj.value->contains(key);
}

bool JsonReader::given(const JsonNode& obj, std::string_view key) const {
  const auto it = obj.value->find(key);
  return it != obj.value->end() && !it->is_null();
}

Result<JsonNode> JsonReader::field(const JsonNode& obj, std::string_view key, JsonKind kind) const {
  const std::string path = fmt::format("{}/{}", obj.path, key);
  const auto it = obj.value->find(key);
  if (it == obj.value->end()) return fail(path, fmt::format("missing (expected {})", kind_name(kind)));
  if (!is_kind(*it, kind))
    return fail(path, fmt::format("expected {}, found {}", kind_name(kind), found(*it)));
  return JsonNode{&*it, path};
}

Result<std::optional<JsonNode>> JsonReader::optional_field(const JsonNode& obj, std::string_view key,
                                                           JsonKind kind) const {
  if (!given(obj, key)) return std::optional<JsonNode>();
  return std::optional<JsonNode>(OPENLOOP_TRY(field(obj, key, kind)));
}

JsonNode JsonReader::element(const JsonNode& array, std::size_t i) const {
  return JsonNode{&(*array.value)[i], fmt::format("{}/{}", array.path, i)};
}

Result<JsonNode> JsonReader::element(const JsonNode& array, std::size_t i, JsonKind kind) const {
  JsonNode n = element(array, i);
  if (!is_kind(*n.value, kind))
    return fail(n.path, fmt::format("expected {}, found {}", kind_name(kind), found(*n.value)));
  return n;
}

Result<std::vector<std::string>> JsonReader::strings(const JsonNode& obj, std::string_view key) const {
  const JsonNode list = OPENLOOP_TRY(field(obj, key, JsonKind::array));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.value->size(); ++i)
    out.push_back(OPENLOOP_TRY(element(list, i, JsonKind::string)).value->get<std::string>());
  return out;
}

Result<std::vector<std::string>> JsonReader::strings_or_empty(const JsonNode& obj,
                                                              std::string_view key) const {
  if (!given(obj, key)) return std::vector<std::string>();
  return strings(obj, key);
}

Result<std::uint64_t> JsonReader::count(const JsonNode& obj, std::string_view key) const {
  return as_count(*OPENLOOP_TRY(field(obj, key, JsonKind::count)).value);
}

Result<std::int64_t> JsonReader::integer(const JsonNode& obj, std::string_view key) const {
  return as_integer(*OPENLOOP_TRY(field(obj, key, JsonKind::integer)).value);
}

Result<double> JsonReader::number(const JsonNode& obj, std::string_view key) const {
  return OPENLOOP_TRY(field(obj, key, JsonKind::number)).value->get<double>();
}

Result<std::string> JsonReader::string(const JsonNode& obj, std::string_view key) const {
  return OPENLOOP_TRY(field(obj, key, JsonKind::string)).value->get<std::string>();
}

Result<bool> JsonReader::boolean(const JsonNode& obj, std::string_view key) const {
  return OPENLOOP_TRY(field(obj, key, JsonKind::boolean)).value->get<bool>();
}

Result<std::uint64_t> JsonReader::count_or(const JsonNode& obj, std::string_view key,
                                           std::uint64_t fallback) const {
  return given(obj, key) ? count(obj, key) : Result<std::uint64_t>(fallback);
}

Result<double> JsonReader::number_or(const JsonNode& obj, std::string_view key, double fallback) const {
  return given(obj, key) ? number(obj, key) : Result<double>(fallback);
}

Result<std::string> JsonReader::string_or(const JsonNode& obj, std::string_view key,
                                          std::string fallback) const {
  return given(obj, key) ? string(obj, key) : Result<std::string>(std::move(fallback));
}

Result<bool> JsonReader::boolean_or(const JsonNode& obj, std::string_view key, bool fallback) const {
  return given(obj, key) ? boolean(obj, key) : Result<bool>(fallback);
}

Result<std::optional<double>> JsonReader::optional_number(const JsonNode& obj, std::string_view key) const {
  if (!given(obj, key)) return std::optional<double>();
  return std::optional<double>(OPENLOOP_TRY(number(obj, key)));
}

Result<std::optional<std::int64_t>> JsonReader::optional_integer(const JsonNode& obj,
                                                                 std::string_view key) const {
  if (!given(obj, key)) return std::optional<std::int64_t>();
  return std::optional<std::int64_t>(OPENLOOP_TRY(integer(obj, key)));
}

}  // namespace openloop::results
