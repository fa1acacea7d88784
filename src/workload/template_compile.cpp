// Compiling a RequestText: parsing {{...}} references, validating every part with http::render_request's
// rules, and laying out literal pieces so that rendering is a sequence of appends.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "http/request.h"
#include "workload/request_template.h"

namespace openloop::workload {
namespace {

/// A parsed field: literal text and variable references, in order.
struct Segment {
  std::string literal;
  std::size_t variable = static_cast<std::size_t>(-1);
  bool is_variable() const { return variable != static_cast<std::size_t>(-1); }
};

enum class Place { target, header, body };

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

tl::unexpected<Error> at(const TemplateText& field, std::string_view message) {
  return usage_error(fmt::format("{}: {}", field.where, message));
}

// The field with every variable replaced by "0": what render_request validates.
std::string with_placeholders(const std::vector<Segment>& segments) {
  std::string out;
  for (const Segment& s : segments) out += s.is_variable() ? std::string("0") : s.literal;
  return out;
}

Result<std::size_t> reference(std::string_view inner, const TemplateText& field, VariableSet& variables,
                              const std::filesystem::path& base_dir) {
  if (inner.find('(') != std::string_view::npos) {
    Generator g = OPENLOOP_TRY(Generator::parse(inner, field.where, base_dir));
    return variables.add_inline(std::move(g));
  }
  if (auto index = variables.find(inner)) return *index;
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < variables.size(); ++i) {
    if (!variables.name(i).empty()) names.push_back(variables.name(i));
  }
  return at(field,
            fmt::format("unknown variable \"{}\" in {{{{{}}}}}; declared variables: {}; or write a "
                        "generator inline, e.g. {{{{zipf(1000, 1.1)}}}}",
                        inner, inner, names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
}

Result<std::vector<Segment>> parse_field(const TemplateText& field, VariableSet& variables,
                                         const std::filesystem::path& base_dir) {
  std::vector<Segment> segments;
  std::string_view rest = field.text;
  while (!rest.empty()) {
    const auto open = rest.find("{{");
    if (open == std::string_view::npos) break;
    const auto close = rest.find("}}", open + 2);
    if (close == std::string_view::npos) {
      return at(field,
                fmt::format("\"{}\": a {{{{ is not closed; write {{{{name}}}} or {{{{zipf(1000, 1.1)}}}}",
                            field.text));
    }
    const std::string_view inner = trim(rest.substr(open + 2, close - open - 2));
    if (inner.empty()) return at(field, fmt::format("\"{}\": {{{{}}}} names no variable", field.text));
    if (open > 0) segments.push_back(Segment{std::string(rest.substr(0, open))});
    segments.push_back(Segment{{}, OPENLOOP_TRY(reference(inner, field, variables, base_dir))});
    rest.remove_prefix(close + 2);
  }
  if (!rest.empty()) segments.push_back(Segment{std::string(rest)});
  return segments;
}

// The text with control characters escaped (\n, \r, \t, \0, \xHH), for messages.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\0')
      out += "\\0";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

// A variable with a finite set of values (choice, csv) must fit every place it is used.
Result<void> check_values(const std::vector<Segment>& segments, Place place, const TemplateText& field,
                          const VariableSet& variables) {
  for (const Segment& s : segments) {
    if (!s.is_variable() || variables.generator(s.variable).values() == nullptr) continue;
    for (const std::string& v : *variables.generator(s.variable).values()) {
      const bool bad_target = place == Place::target && std::any_of(v.begin(), v.end(), [](char c) {
                                return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
                              });
      const bool bad_header =
          place == Place::header && v.find_first_of(std::string_view("\r\n\0", 3)) != v.npos;
      if (bad_target || bad_header || (place == Place::target && v.empty())) {
        return at(field, fmt::format("variable {} can produce \"{}\", which {}",
                                     printable(variables.label(s.variable)), printable(v),
                                     place == Place::target
                                         ? "is empty or has a space or control character; a request target "
                                           "cannot: percent-encode the values (e.g. %20 for a space)"
                                         : "has CR, LF or NUL; a header value is a single line"));
      }
    }
  }
  return {};
}

/// A spec split into literal text and variable references, validated part by part.
struct ParsedSpec {
  std::string prefix;  ///< the base URL's path without its trailing '/'
  std::vector<Segment> path;
  std::vector<std::vector<Segment>> headers;  ///< one per spec header, in order
  std::vector<Segment> body;
  /// build_request's request with every variable as "0": the request when there are none.
  http::ConstantRequest whole;
};

Result<std::vector<http::Header>> parse_headers(const RequestText& spec, const net::Url& probe,
                                                VariableSet& variables, const std::filesystem::path& base_dir,
                                                ParsedSpec& out) {
  std::vector<http::Header> probe_headers;
  for (const auto& [name, value] : spec.headers) {
    if (iequals(name, "Content-Length")) {
      return at(value,
                "Content-Length is computed for every request from the rendered body; remove the header");
    }
    out.headers.push_back(OPENLOOP_TRY(parse_field(value, variables, base_dir)));
    OPENLOOP_TRY_VOID(check_values(out.headers.back(), Place::header, value, variables));
    http::Header h{name, with_placeholders(out.headers.back())};
    if (auto ok = http::render_request("GET", probe, {h}, ""); !ok) return at(value, ok.error().message);
    probe_headers.push_back(std::move(h));
  }
  return probe_headers;
}

// Each part is validated on its own with render_request (variables as "0"), so an error names its part.
Result<ParsedSpec> parse_spec(const RequestText& spec, const net::Url& base, VariableSet& variables,
                              const std::filesystem::path& base_dir) {
  net::Url probe = base;
  probe.target.assign(1, '/');  // not = "/": GCC 12 -Wrestrict false positive (bug 105329) at -O2
  if (auto ok = http::render_request(spec.method.text, probe, {}, ""); !ok) {
    return at(spec.method, ok.error().message);
  }
  if (spec.path.text.empty() || spec.path.text.front() != '/') {
    return at(spec.path, fmt::format("\"{}\" must begin with /, e.g. /item/{{{{sku}}}}", spec.path.text));
  }
  ParsedSpec out;
  out.prefix =
      base.target == "/" ? std::string() : base.target.substr(0, base.target.find_last_not_of('/') + 1);
  out.path = OPENLOOP_TRY(parse_field(spec.path, variables, base_dir));
  OPENLOOP_TRY_VOID(check_values(out.path, Place::target, spec.path, variables));
  probe.target = out.prefix + with_placeholders(out.path);
  if (auto ok = http::render_request("GET", probe, {}, ""); !ok) return at(spec.path, ok.error().message);
  const auto headers = OPENLOOP_TRY(parse_headers(spec, probe, variables, base_dir, out));
  out.body = OPENLOOP_TRY(parse_field(spec.body, variables, base_dir));
  auto whole = http::build_request(spec.method.text, probe, headers, with_placeholders(out.body));
  if (!whole) return usage_error(fmt::format("request {}: {}", spec.name, whole.error().message));
  out.whole = std::move(*whole);
  return out;
}

}  // namespace

/// Lays out a template's pieces; friend of RequestTemplate.
class TemplateBuilder {
 public:
  explicit TemplateBuilder(RequestTemplate& t) : m_t(t) {}

  /// The fields in order, each closed by an end piece: method, target (base path and path), authority,
  /// headers (name, value), body.
  void layout(const RequestText& spec, const net::Url& base, ParsedSpec& parsed) {
    using Field = http::RequestBuffer::Field;
    literal(m_t.m_method);
    end(Field::method);
    literal(parsed.prefix);
    field(parsed.path);
    end(Field::target);
    literal(base.host_header);
    end(Field::authority);
    for (std::size_t i = 0; i < spec.headers.size(); ++i) {
      literal(spec.headers[i].first);
      end(Field::header_name);
      field(parsed.headers[i]);
      end(Field::header_value);
    }
    field(parsed.body);
    end(Field::body);
    const auto given = [&](std::string_view n) {
      return std::any_of(spec.headers.begin(), spec.headers.end(),
                         [&](const auto& h) { return iequals(h.first, n); });
    };
    // Content-Length is never given: compile refuses it (it is computed from each rendered body).
    m_t.m_flags =
        http::RequestFlags{given("Host"), given("User-Agent"), false,
                           m_t.m_method == "POST" || m_t.m_method == "PUT" || m_t.m_method == "PATCH"};
    m_t.m_has_variables = m_t.m_key_variable.has_value();
    if (!m_t.m_has_variables) m_t.m_constant = std::move(parsed.whole);
  }

 private:
  void end(http::RequestBuffer::Field f) { m_t.m_pieces.push_back({0, 0, RequestTemplate::k_end, f}); }

  void literal(std::string_view text) {
    if (text.empty()) return;
    std::vector<RequestTemplate::Piece>& into = m_t.m_pieces;
    if (!into.empty() && into.back().variable == RequestTemplate::k_literal &&
        into.back().offset + into.back().size == m_t.m_literals.size()) {
      into.back().size += static_cast<std::uint32_t>(text.size());
    } else {
      into.push_back(
          {static_cast<std::uint32_t>(m_t.m_literals.size()), static_cast<std::uint32_t>(text.size())});
    }
    m_t.m_literals.append(text);
  }

  void field(const std::vector<Segment>& segments) {
    for (const Segment& s : segments) {
      if (!s.is_variable()) {
        literal(s.literal);
        continue;
      }
      m_t.m_pieces.push_back({0, 0, s.variable});
      if (!m_t.m_key_variable) m_t.m_key_variable = s.variable;
      if (std::find(m_t.m_variables.begin(), m_t.m_variables.end(), s.variable) == m_t.m_variables.end()) {
        m_t.m_variables.push_back(s.variable);
      }
    }
  }

  RequestTemplate& m_t;
};

Result<RequestTemplate> RequestTemplate::compile(const RequestText& spec, const net::Url& base,
                                                 VariableSet& variables,
                                                 const std::filesystem::path& base_dir, std::size_t index) {
  ParsedSpec parsed = OPENLOOP_TRY(parse_spec(spec, base, variables, base_dir));
  RequestTemplate t;
  t.m_name = spec.name;
  t.m_method = spec.method.text;
  t.m_target_text = parsed.prefix + spec.path.text;
  t.m_success = spec.success;
  t.m_index = index;
  TemplateBuilder(t).layout(spec, base, parsed);
  return t;
}

}  // namespace openloop::workload
