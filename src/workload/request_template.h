// Request templates: a named request whose path, header values and body draw variables, compiled once and
// rendered per request, as protocol-neutral parts (http/request_parts.h), into a reused buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "http/constant_request.h"
#include "http/request_buffer.h"
#include "http/request_parts.h"
#include "net/url.h"
#include "workload/key_tracker.h"
#include "workload/variables.h"

namespace openloop::workload {

/// Statuses that count as success: min ≤ status ≤ max (100 ≤ min ≤ max ≤ 599).
struct StatusRange {
  int min = 100;
  int max = 399;
  bool contains(int status) const { return min <= status && status <= max; }
  /// "200-299", or "201" for a single status.
  std::string to_string() const;
  friend bool operator==(const StatusRange&, const StatusRange&) = default;
};

/// Parses "200-299" or "201". Error (usage) begins with `what` and says what is accepted.
Result<StatusRange> parse_status_range(std::string_view text, std::string_view what);

/// A piece of template text and where it came from: `where` prefixes its error messages (for a plan file
/// "plan.yaml:7:11: requests.get_item.path"; for flags "--path").
struct TemplateText {
  std::string text;
  std::string where;
};

/// A request as written, before compilation. Template syntax, in path, header values and body:
///   {{name}}              the plan's variable `name` (one value per request, whatever the number of uses)
///   {{zipf(1000, 1.1)}}   an inline generator (any Generator expression), its own variable
/// Spaces inside the braces are ignored. There is no escape: "{{" always opens a reference.
struct RequestText {
  std::string name;
  TemplateText method{"GET", "method"};
  TemplateText path;  ///< begins with '/'; appended to the base URL's path ("/api" + "/item/1")
  std::vector<std::pair<std::string, TemplateText>> headers;  ///< name (literal), value (template), in order
  TemplateText body;
  StatusRange success;  ///< statuses that count as success for this request
};

/// One worker's rendering state: its variable draws and one KeyTracker per template. Not thread-safe; one per
/// worker. Allocation-free once its buffers have grown to the largest request.
class RenderContext {
 public:
  /// `templates` is the number of request templates in the plan (their index() values are below it).
  RenderContext(const VariableSet& variables, std::size_t templates, std::uint64_t seed, unsigned worker,
                unsigned workers);

  VariableState& variables() { return m_variables; }
  /// The keys rendered by template `index` on this worker so far.
  const KeyTracker& keys(std::size_t index) const { return m_keys[index]; }

 private:
  friend class RequestTemplate;
  VariableState m_variables;
  std::vector<KeyTracker> m_keys;
};

/// A compiled request template. Immutable after compile(); const methods are thread-safe.
class RequestTemplate {
 public:
  /// Parses and validates every part with http::render_request's rules: the method and header names are
  /// tokens; header values have no CR, LF or NUL; the target has no spaces or control characters; no
  /// Transfer-Encoding or Content-Length header (Content-Length is computed per request). Values a variable
  /// can produce (choice, csv) are checked against every place it is used. Inline generators are added to
  /// `variables`; relative csv files are found in `base_dir`. `index` is this template's position in the plan
  /// (its KeyTracker in a RenderContext). Errors (usage) begin with the offending part's `where`.
  static Result<RequestTemplate> compile(const RequestText& spec, const net::Url& base,
                                         VariableSet& variables, const std::filesystem::path& base_dir,
                                         std::size_t index);

  /// Renders the request into `out` (cleared first; its capacity is reused) as parts: the method, the target
  /// (base path included), the authority (the base URL's host_header), the headers in order, the body, and
  /// the flags (Host or User-Agent given; POST, PUT, PATCH send Content-Length: 0 for an empty body).
  /// http::write_http1 of the parts is byte for byte what http::render_request writes for the drawn values.
  /// Starts a new draw of ctx's variables (each drawn once, whatever its number of uses) and records the key
  /// in ctx. Returns the key: the value of the template's first variable (path, then headers, then body), or
  /// the constant target when it has none; the view is valid until ctx's next render. Allocation-free once
  /// `out` and ctx are warm.
  std::string_view render(RenderContext& ctx, http::RequestBuffer& out) const;

  /// The whole request when the template draws no variable (built once at compile time), else null: the
  /// engine may send it as it is.
  const http::ConstantRequest* constant() const { return m_constant ? &*m_constant : nullptr; }
  /// The constant request's HTTP/1.1 bytes, else nullopt.
  std::optional<std::string_view> constant_bytes() const {
    if (!m_constant) return std::nullopt;
    return m_constant->http1();
  }
  bool has_variables() const { return m_has_variables; }

  const std::string& name() const { return m_name; }
  const std::string& method() const { return m_method; }
  /// The request target as written, base path included, e.g. "/api/item/{{sku}}".
  const std::string& target_text() const { return m_target_text; }
  const StatusRange& success() const { return m_success; }
  std::size_t index() const { return m_index; }
  /// The variable whose value is the key (see render), if any.
  std::optional<std::size_t> key_variable() const { return m_key_variable; }
  /// Every variable the template draws, in order of first use.
  const std::vector<std::size_t>& variables() const { return m_variables; }

 private:
  /// A literal stretch of m_literals, a variable's value, or the end of a field (k_end: `field`).
  struct Piece {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    std::size_t variable = k_literal;
    http::RequestBuffer::Field field = http::RequestBuffer::Field::method;
  };
  static constexpr std::size_t k_literal = static_cast<std::size_t>(-1);
  static constexpr std::size_t k_end = k_literal - 1;
  friend class TemplateBuilder;

  std::string m_name;
  std::string m_method;
  std::string m_target_text;
  StatusRange m_success;
  std::size_t m_index = 0;
  std::string m_literals;       ///< every literal piece, referenced by offset
  std::vector<Piece> m_pieces;  ///< every field in order: method, target, authority, headers, body
  http::RequestFlags m_flags;
  std::optional<http::ConstantRequest> m_constant;  ///< the whole request when the template has no variables
  bool m_has_variables = false;
  std::optional<std::size_t> m_key_variable;
  std::vector<std::size_t> m_variables;
};

}  // namespace openloop::workload
