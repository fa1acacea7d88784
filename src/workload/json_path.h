// JSON paths a flow step captures or checks with ($.a.b, $.items[0].id, $['odd key'], an RFC 6901 pointer
// /a/b), parsed once at load time, and a scanner that finds one path's value in a response body without
// building a document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::workload {

/// A parsed path: the members and elements to step through from the document's root. Immutable; thread-safe.
class JsonPath {
 public:
  /// One step: an object member (`key`), an array element (`index` ≥ 0), or, from a pointer's all-digit
  /// token, either (both set: the member on an object, the element on an array).
  struct Segment {
    std::string key;
    std::int64_t index = -1;
    bool member = true;  ///< false for `[N]`: an array element only
  };

  /// Parses `$` followed by `.name`, `[N]` (N ≥ 0) and `['any key']` / `["any key"]` (\' \" \\ escape
  /// inside), or an RFC 6901 pointer (`/a/b`, `~1` for `/`, `~0` for `~`; "" is the root). A `.name` is
  /// letters, digits, `_` and `-`. Errors (usage) begin with `what`, quote the path, give the 1-based column
  /// and list the accepted forms.
  static Result<JsonPath> parse(std::string_view text, std::string_view what);

  const std::string& text() const { return m_text; }
  const std::vector<Segment>& segments() const { return m_segments; }

 private:
  std::string m_text;
  std::vector<Segment> m_segments;
};

/// What a JSON value is.
enum class JsonKind : std::uint8_t { object, array, string, number, boolean, null };

/// A value found in a document: `raw` is its text (a string's content between the quotes, still escaped;
/// anything else as written) and views into the scanned document.
struct JsonValue {
  std::string_view raw;
  JsonKind kind = JsonKind::null;
};

/// Most levels of nesting the scanner walks into or skips over; deeper documents are not searched.
inline constexpr std::size_t k_json_max_depth = 64;

/// The value at `path` in `json`, or nullopt when the path is absent, the document is malformed on the way or
/// nests deeper than k_json_max_depth. Scans only what the path needs (members before the wanted one are
/// skipped, never decoded); O(bytes scanned), allocation-free, thread-safe. A member whose name has escapes
/// is compared as written.
std::optional<JsonValue> json_find(std::string_view json, const JsonPath& path);

/// A found value as text: a string's content decoded (\n, \", \uXXXX as UTF-8, surrogate pairs joined), any
/// other value as written. Written into `out` (cleared; its capacity reused). False on a bad escape.
bool json_text(const JsonValue& value, std::string& out);

}  // namespace openloop::workload
