// A templated request message: the template compiled against the input type's descriptors, the drawn values
// read and encoded per call, everything else encoded once by libprotobuf.
#include "grpc/templated_encoder.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include "grpc/framing.h"

namespace openloop::grpc {

namespace gp = google::protobuf;

namespace {

bool is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The characters of a bare JSON token (a number, true, false, null).
bool is_token_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
         c == '.';
}

bool starts_at(std::string_view s, std::size_t at, std::string_view prefix) {
  return s.size() - at >= prefix.size() && s.compare(at, prefix.size(), prefix) == 0;
}

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

char* put_varint(std::uint64_t v, char* at) {
  for (; v >= 0x80; v >>= 7) *at++ = static_cast<char>((v & 0x7F) | 0x80);
  *at++ = static_cast<char>(v);
  return at;
}

char* put_fixed(std::uint64_t v, std::size_t bytes, char* at) {
  for (std::size_t i = 0; i < bytes; ++i, v >>= 8) *at++ = static_cast<char>(v & 0xFF);
  return at;
}

// The field's tag (number and wire type), encoded.
std::string encoded_tag(const gp::FieldDescriptor& f) {
  std::uint32_t wire = 0;
  switch (f.type()) {
    case gp::FieldDescriptor::TYPE_DOUBLE:
    case gp::FieldDescriptor::TYPE_FIXED64:
    case gp::FieldDescriptor::TYPE_SFIXED64:
      wire = 1;
      break;
    case gp::FieldDescriptor::TYPE_FLOAT:
    case gp::FieldDescriptor::TYPE_FIXED32:
    case gp::FieldDescriptor::TYPE_SFIXED32:
      wire = 5;
      break;
    case gp::FieldDescriptor::TYPE_STRING:
    case gp::FieldDescriptor::TYPE_BYTES:
    case gp::FieldDescriptor::TYPE_MESSAGE:
      wire = 2;
      break;
    default:
      wire = 0;
  }
  const auto tag = (static_cast<std::uint64_t>(f.number()) << 3) | wire;
  std::string out(varint_size(tag), '\0');
  put_varint(tag, out.data());
  return out;
}

// The JSON mapping gives these their own forms (Timestamp as a string, Struct as any JSON...).
bool is_well_known(const gp::Descriptor& d) {
  return d.full_name().rfind("google.protobuf.", 0) == 0;
}

// An integer as JSON writes it plainly: 0, or an optional '-' and digits without a leading zero ("-0" is not
// one). Its magnitude into `magnitude`, false beyond 2^64 - 1.
bool plain_integer(std::string_view text, bool& negative, std::uint64_t& magnitude) {
  negative = !text.empty() && text.front() == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || (digits.front() == '0' && (digits.size() > 1 || negative))) return false;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude);
  return ec == std::errc() && end == digits.data() + digits.size();
}

// A JSON number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool json_number(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > from;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.' && (++i, !digits())) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

// A bare number for a double (or a float, `max` and `exact` its own): an integer token up to `exact` (2^53,
// or 2^24 for a float), which the type holds exactly, else a JSON number read as the nearest double; larger
// integers are left to libprotobuf.
bool read_floating(std::string_view text, double max, std::uint64_t exact, double& value) {
  bool negative = false;
  std::uint64_t magnitude = 0;
  if (text.find_first_of(".eE") == std::string_view::npos) {
    if (!plain_integer(text, negative, magnitude) || magnitude > exact) return false;
    value = negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
    return true;
  }
  if (!json_number(text)) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && std::abs(value) <= max;
}

}  // namespace

// The template read as JSON beside the input type's descriptors: the holes (each placeholder's value and its
// field), the messages that hold them, the constant text between them.
class TemplatedEncoder::Compiler {
 public:
  Compiler(TemplatedEncoder& e, std::string_view text) : m_e(e), m_text(text) {}

  bool run(const gp::Descriptor& root) {
    if (is_well_known(root)) return fail(root.full_name() + " has a JSON form of its own");
    m_e.m_nodes.push_back(Node{});
    ws();
    if (m_at >= m_text.size() || m_text[m_at] != '{') return fail("the template is not a JSON object");
    if (!object(&root, 0)) return false;
    ws();
    if (m_at != m_text.size()) return fail("text after the message");
    std::size_t at = 0;
    for (const auto& [begin, end] : m_extents) {
      m_e.m_literals.emplace_back(m_text.substr(at, begin - at));
      at = end;
    }
    m_e.m_literals.emplace_back(m_text.substr(at));
    return true;
  }

  // The template with each hole as a value of its field's type: zero (each field's default) or not.
  std::string typed(bool zero) const {
    std::string out = m_e.m_literals.front();
    for (std::size_t i = 0; i < m_e.m_holes.size(); ++i) {
      const Hole& h = m_e.m_holes[i];
      const gp::FieldDescriptor& f = *h.field;
      std::string v;
      if (f.type() == gp::FieldDescriptor::TYPE_STRING) {
        v = zero ? "" : "x";
      } else if (f.type() == gp::FieldDescriptor::TYPE_BOOL) {
        v = zero ? "false" : "true";
      } else if (f.type() == gp::FieldDescriptor::TYPE_ENUM) {
        const gp::EnumValueDescriptor& e = *f.enum_type()->value(zero ? 0 : f.enum_type()->value_count() - 1);
        v = h.quoted ? e.name() : std::to_string(e.number());
      } else {
        v = zero ? "0" : "1";
      }
      out.append(h.quoted ? fmt::format("\"{}\"", v) : v).append(m_e.m_literals[i + 1]);
    }
    return out;
  }

 private:
  bool fail(std::string why) {
    if (m_e.m_slow_reason.empty()) m_e.m_slow_reason = std::move(why);
    return false;
  }
  void ws() {
    while (m_at < m_text.size() && is_ws(m_text[m_at])) ++m_at;
  }
  // The end of the placeholder opening at `at` (after its "}}"), or npos.
  std::size_t placeholder_end(std::size_t at) const {
    const std::size_t close = m_text.find("}}", at + 2);
    return close == std::string_view::npos ? close : close + 2;
  }

  // A placeholder's field: a singular scalar (not bytes) that the drawn value can be read for.
  bool leaf(const gp::FieldDescriptor* f, bool quoted) {
    if (f == nullptr)
      return fail("a placeholder inside an array, a map, a well-known type or an unknown field");
    if (f->is_repeated())
      return fail(fmt::format("a placeholder standing for the repeated field {}", f->name()));
    switch (f->type()) {
      case gp::FieldDescriptor::TYPE_MESSAGE:
      case gp::FieldDescriptor::TYPE_GROUP:
        if (is_well_known(*f->message_type()))
          return fail(fmt::format("a placeholder in the field {} of the well-known type {}", f->name(),
                                  f->message_type()->full_name()));
        return fail(fmt::format("a placeholder standing for the message field {}", f->name()));
      case gp::FieldDescriptor::TYPE_BYTES:
        return fail(fmt::format("a placeholder in the bytes field {}", f->name()));
      case gp::FieldDescriptor::TYPE_STRING:
        return quoted || fail(fmt::format("a placeholder for the string field {} outside quotes", f->name()));
      case gp::FieldDescriptor::TYPE_BOOL:
      case gp::FieldDescriptor::TYPE_DOUBLE:
      case gp::FieldDescriptor::TYPE_FLOAT:
        return !quoted || fail(fmt::format("a placeholder for the field {} inside quotes", f->name()));
      default:
        return true;
    }
  }

  void hole(const gp::FieldDescriptor& f, std::size_t node, bool quoted, std::size_t begin) {
    m_e.m_holes.push_back(Hole{&f, node, quoted, encoded_tag(f)});
    m_extents.emplace_back(begin, m_at);
    for (std::size_t n = node;; n = m_e.m_nodes[n].parent) {
      m_e.m_nodes[n].has_holes = true;
      if (n == 0) break;
    }
  }

  // The JSON string at m_at, placeholders skipped whole (their expressions may hold quotes).
  bool string(bool& templated, bool& escaped) {
    for (++m_at; m_at < m_text.size();) {
      if (starts_at(m_text, m_at, "{{")) {
        m_at = placeholder_end(m_at);
        if (m_at == std::string_view::npos) return fail("a {{ without }}");
        templated = true;
      } else if (m_text[m_at] == '"') {
        ++m_at;
        return true;
      } else {
        if (m_text[m_at] == '\\') escaped = true;
        m_at += m_text[m_at] == '\\' ? 2 : 1;
      }
    }
    return fail("a string without its closing quote");
  }

  // A JSON value for `field` of node `node` (field null: a value the fast path does not follow).
  bool value(const gp::FieldDescriptor* field, std::size_t node) {
    ws();
    if (m_at >= m_text.size()) return fail("the template ends early");
    const std::size_t begin = m_at;
    if (starts_at(m_text, m_at, "{{")) {
      m_at = placeholder_end(m_at);
      if (m_at == std::string_view::npos) return fail("a {{ without }}");
      if (!leaf(field, false)) return false;
      hole(*field, node, false, begin);
      // Whatever is drawn, the value's token ends where the template's text goes on.
      if (m_at < m_text.size() && !is_ws(m_text[m_at]) && m_text[m_at] != ',' && m_text[m_at] != '}' &&
          m_text[m_at] != ']')
        return fail("a placeholder followed by text");
      return true;
    }
    const char c = m_text[m_at];
    // As deep as libprotobuf's parser goes (100), and no deeper than this recursion should.
    if ((c == '{' || c == '[') && m_depth >= k_max_depth) return fail("the JSON nested deeper than 100");
    const Depth depth(m_depth);
    if (c == '{') {
      const bool followed = field != nullptr && !field->is_repeated() && !field->is_map() &&
                            field->type() == gp::FieldDescriptor::TYPE_MESSAGE &&
                            !is_well_known(*field->message_type());
      if (!followed) return object(nullptr, 0);
      const std::size_t child = m_e.m_nodes.size();
      m_e.m_nodes.push_back(Node{node, field, encoded_tag(*field), {}, false});
      if (!object(field->message_type(), child)) return false;
      if (!m_e.m_nodes[child].has_holes) m_e.m_nodes.resize(child);  // constant: libprotobuf encodes it
      return true;
    }
    if (c == '[') return array();
    if (c == '"') {
      bool templated = false, escaped = false;
      if (!string(templated, escaped)) return false;
      if (!templated) return true;
      if (escaped) return fail("a placeholder in a string with an escape");
      if (!leaf(field, true)) return false;
      // Text beside a placeholder belongs in a string field: for a number or an enum the drawn value is the
      // whole string (and the template's shape is then checked with each value drawn as its field's type).
      if (field->type() != gp::FieldDescriptor::TYPE_STRING &&
          (!starts_at(m_text, begin + 1, "{{") || placeholder_end(begin + 1) != m_at - 1))
        return fail(fmt::format("a placeholder with text beside it in the field {}", field->name()));
      hole(*field, node, true, begin);
      return true;
    }
    while (m_at < m_text.size() && is_token_char(m_text[m_at])) ++m_at;
    return m_at > begin || fail(fmt::format("not JSON at offset {}", begin));
  }

  // Ends after `c` (blanks first), or fails.
  bool expect(char c) {
    ws();
    if (m_at >= m_text.size() || m_text[m_at] != c) return fail(fmt::format("not JSON at offset {}", m_at));
    ++m_at;
    return true;
  }

  bool object(const gp::Descriptor* type, std::size_t node) {
    ++m_at;
    ws();
    if (m_at < m_text.size() && m_text[m_at] == '}') return ++m_at, true;
    std::vector<const gp::FieldDescriptor*> seen;
    for (;;) {
      ws();
      if (m_at >= m_text.size() || m_text[m_at] != '"') return fail("a key that is not a constant string");
      const std::size_t begin = m_at;
      bool templated = false, escaped = false;
      if (!string(templated, escaped)) return false;
      if (templated) return fail("a placeholder in a key");
      const std::string_view key = m_text.substr(begin + 1, m_at - begin - 2);
      const gp::FieldDescriptor* f = nullptr;
      for (int i = 0; type != nullptr && !escaped && i < type->field_count() && f == nullptr; ++i) {
        if (type->field(i)->name() == key || type->field(i)->json_name() == key) f = type->field(i);
      }
      if (f != nullptr && std::find(seen.begin(), seen.end(), f) != seen.end())
        return fail(fmt::format("the field {} given twice", f->name()));
      seen.push_back(f);
      if (!expect(':') || !value(f, node)) return false;
      ws();
      if (m_at < m_text.size() && m_text[m_at] == '}') return ++m_at, true;
      if (!expect(',')) return false;
    }
  }

  bool array() {
    ++m_at;
    ws();
    if (m_at < m_text.size() && m_text[m_at] == ']') return ++m_at, true;
    for (;;) {
      if (!value(nullptr, 0)) return false;
      ws();
      if (m_at < m_text.size() && m_text[m_at] == ']') return ++m_at, true;
      if (!expect(',')) return false;
    }
  }

  static constexpr int k_max_depth = 100;
  // One level more while a value is read.
  struct Depth {
    explicit Depth(int& depth) : m_depth(depth) { ++m_depth; }
    ~Depth() { --m_depth; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    int& m_depth;
  };

  TemplatedEncoder& m_e;
  std::string_view m_text;
  std::size_t m_at = 0;
  int m_depth = 0;
  std::vector<std::pair<std::size_t, std::size_t>> m_extents;  ///< each hole's [begin, end) in m_text
};

TemplatedEncoder::TemplatedEncoder(const gp::MethodDescriptor& method, std::string_view json_template)
    : m_slow(method) {
  Compiler compiler(*this, json_template);
  const gp::Descriptor& type = *method.input_type();
  gp::DynamicMessageFactory factory;
  const std::unique_ptr<gp::Message> prototype(factory.GetPrototype(&type)->New());
  if (compiler.run(type)) {
    // Each hole as a value of its type: the message libprotobuf reads, whose other fields are the constants.
    const std::string typed = compiler.typed(false);
    gp::util::JsonParseOptions options;
    options.ignore_unknown_fields = false;
    if (!gp::util::JsonStringToMessage(typed, prototype.get(), options).ok())
      m_slow_reason = "libprotobuf refuses the template with each placeholder as a value of its field";
  }
  // Each message's items in field-number order (libprotobuf's order): constants encoded here, field by field.
  std::vector<const gp::Message*> messages{prototype.get()};
  for (std::size_t n = 0; m_slow_reason.empty() && n < m_nodes.size(); ++n) {
    if (n > 0) {
      const gp::Message& parent = *messages[m_nodes[n].parent];
      messages.push_back(&parent.GetReflection()->GetMessage(parent, m_nodes[n].field));
    }
    std::vector<std::pair<int, Item>> items;
    std::vector<const gp::FieldDescriptor*> drawn;
    for (std::size_t h = 0; h < m_holes.size(); ++h) {
      if (m_holes[h].node != n) continue;
      items.emplace_back(m_holes[h].field->number(), Item{Item::Kind::hole, h});
      drawn.push_back(m_holes[h].field);
    }
    for (std::size_t c = n + 1; c < m_nodes.size(); ++c) {
      if (m_nodes[c].parent != n) continue;
      items.emplace_back(m_nodes[c].field->number(), Item{Item::Kind::child, c});
      drawn.push_back(m_nodes[c].field);
    }
    const gp::Message& m = *messages[n];
    std::vector<const gp::FieldDescriptor*> present;
    m.GetReflection()->ListFields(m, &present);
    for (const gp::FieldDescriptor* f : present) {
      if (std::find(drawn.begin(), drawn.end(), f) != drawn.end()) continue;
      const std::unique_ptr<gp::Message> alone(m.New());
      alone->CopyFrom(m);
      for (const gp::FieldDescriptor* other : present)
        if (other != f) alone->GetReflection()->ClearField(alone.get(), other);
      m_constants.push_back(alone->SerializeAsString());
      items.emplace_back(f->number(), Item{Item::Kind::constant, m_constants.size() - 1});
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [number, item] : items) {
      std::vector<Item>& out = m_nodes[n].items;
      if (item.kind == Item::Kind::constant && !out.empty() && out.back().kind == Item::Kind::constant) {
        m_constants[out.back().index] += m_constants[item.index];
      } else {
        out.push_back(item);
      }
    }
  }
  // Checked once against libprotobuf: every placeholder drawn as its type's default, then as another value.
  for (const bool zero : {true, false}) {
    if (!m_slow_reason.empty()) break;
    const std::string json = compiler.typed(zero);
    std::string fast, slow, scratch;
    if (!m_slow.frame_into(json, slow, scratch) || !frame_fast(json, fast) || fast != slow)
      m_slow_reason = "the compiled template did not encode as libprotobuf does";
  }
  if (!m_slow_reason.empty()) {
    m_holes.clear();
    m_nodes.clear();
    m_constants.clear();
    m_literals.clear();
  }
}

TemplatedEncoder::~TemplatedEncoder() = default;

bool TemplatedEncoder::frame_into(std::string_view rendered, std::string& out) const {
  if (frame_fast(rendered, out)) return true;
  thread_local std::string scratch;  // capacity reused
  return m_slow.frame_into(rendered, out, scratch);
}

bool TemplatedEncoder::frame_fast(std::string_view rendered, std::string& out) const {
  if (m_nodes.empty()) return false;
  thread_local std::vector<Drawn> drawn;  // each thread's, grown once to the largest template
  thread_local std::vector<std::size_t> sizes;
  drawn.resize(m_holes.size());
  sizes.resize(m_nodes.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < m_holes.size(); ++i) {
    if (!starts_at(rendered, at, m_literals[i])) return false;
    at += m_literals[i].size();
    const std::size_t begin = at;
    std::string_view text;
    if (m_holes[i].quoted) {
      if (at == rendered.size() || rendered[at] != '"') return false;
      for (++at; at < rendered.size() && rendered[at] != '"'; ++at) {
        const auto c = static_cast<unsigned char>(rendered[at]);
        if (c == '\\' || c < 0x20 || c >= 0x7F) return false;  // escapes and UTF-8 are libprotobuf's to read
      }
      if (at == rendered.size()) return false;
      text = rendered.substr(begin + 1, at - begin - 1);
      ++at;
    } else {
      while (at < rendered.size() && is_token_char(rendered[at])) ++at;
      text = rendered.substr(begin, at - begin);
    }
    if (!read(m_holes[i], text, drawn[i])) return false;
  }
  if (rendered.substr(at) != m_literals.back()) return false;
  for (std::size_t n = m_nodes.size(); n-- > 0;) {
    std::size_t size = 0;
    for (const Item& item : m_nodes[n].items) {
      if (item.kind == Item::Kind::constant) size += m_constants[item.index].size();
      if (item.kind == Item::Kind::hole) size += drawn[item.index].size;
      if (item.kind == Item::Kind::child)
        size += m_nodes[item.index].tag.size() + varint_size(sizes[item.index]) + sizes[item.index];
    }
    sizes[n] = size;
  }
  if (sizes[0] > std::numeric_limits<std::uint32_t>::max()) return false;
  out.resize(k_prefix_size + sizes[0]);
  char* p = out.data();
  *p++ = 0;
  for (int shift = 24; shift >= 0; shift -= 8) *p++ = static_cast<char>((sizes[0] >> shift) & 0xFF);
  write(0, drawn, sizes, p);
  return true;
}

// The drawn value's bits as the field's encoding wants them, or false for a form the fast path leaves to
// libprotobuf (which may accept it, as "1.0" for an int32, or refuse it, as 2^31 for one).
bool TemplatedEncoder::read(const Hole& hole, std::string_view text, Drawn& d) const {
  using F = gp::FieldDescriptor;
  const F& f = *hole.field;
  d.text = {};
  std::size_t payload = 0;
  bool negative = false;
  std::uint64_t magnitude = 0;
  // An integer in [lo, hi], its two's complement in d.bits.
  auto integer = [&](std::int64_t lo, std::uint64_t hi) {
    if (!plain_integer(text, negative, magnitude)) return false;
    const std::uint64_t lowest = lo < 0 ? static_cast<std::uint64_t>(-(lo + 1)) + 1 : 0;  // |lo|
    if (negative ? magnitude > lowest : magnitude > hi) return false;
    d.bits = negative ? ~magnitude + 1 : magnitude;
    return true;
  };
  constexpr std::int64_t k_min32 = std::numeric_limits<std::int32_t>::min();
  constexpr std::uint64_t k_max32 = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t k_min64 = std::numeric_limits<std::int64_t>::min();
  constexpr std::uint64_t k_max64 = std::numeric_limits<std::int64_t>::max();
  switch (f.type()) {
    case F::TYPE_STRING:
      d.text = text;
      d.bits = text.size();
      payload = varint_size(text.size()) + text.size();
      break;
    case F::TYPE_BOOL:
      if (text != "true" && text != "false") return false;
      d.bits = text == "true" ? 1 : 0;
      payload = 1;
      break;
    case F::TYPE_ENUM: {
      const gp::EnumDescriptor& e = *f.enum_type();
      const gp::EnumValueDescriptor* v = nullptr;
      for (int i = 0; hole.quoted && i < e.value_count() && v == nullptr; ++i)
        if (e.value(i)->name() == text) v = e.value(i);
      // A number: any int32 for a proto3 enum (open: kept as it is), a known value's for a proto2 one.
      const bool open = e.file()->syntax() == gp::FileDescriptor::SYNTAX_PROTO3;
      if (!hole.quoted && integer(k_min32, k_max32)) {
        if (!open && e.FindValueByNumber(static_cast<int>(d.bits)) == nullptr) return false;
      } else if (v == nullptr) {
        return false;
      } else {
        d.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(v->number()));
      }
      payload = varint_size(d.bits);
      break;
    }
    case F::TYPE_DOUBLE:
    case F::TYPE_FLOAT: {
      const bool is_double = f.type() == F::TYPE_DOUBLE;
      double v = 0;
      if (!read_floating(text,
                         is_double ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max(),
                         is_double ? std::uint64_t{1} << 53 : std::uint64_t{1} << 24, v))
        return false;
      d.bits =
          is_double ? std::bit_cast<std::uint64_t>(v) : std::bit_cast<std::uint32_t>(static_cast<float>(v));
      payload = is_double ? 8 : 4;
      break;
    }
    case F::TYPE_INT32:
    case F::TYPE_SINT32:
    case F::TYPE_SFIXED32:
      if (!integer(k_min32, k_max32)) return false;
      if (f.type() == F::TYPE_SINT32) {
        const auto v = static_cast<std::int32_t>(d.bits);
        d.bits = (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
      }
      if (f.type() == F::TYPE_SFIXED32) d.bits &= 0xFFFFFFFF;
      payload = f.type() == F::TYPE_SFIXED32 ? 4 : varint_size(d.bits);
      break;
    case F::TYPE_UINT32:
    case F::TYPE_FIXED32:
      if (!integer(0, 0xFFFFFFFF)) return false;
      payload = f.type() == F::TYPE_FIXED32 ? 4 : varint_size(d.bits);
      break;
    case F::TYPE_INT64:
    case F::TYPE_SINT64:
    case F::TYPE_SFIXED64:
      if (!integer(k_min64, k_max64)) return false;
      if (f.type() == F::TYPE_SINT64) {
        const auto v = static_cast<std::int64_t>(d.bits);
        d.bits = (d.bits << 1) ^ static_cast<std::uint64_t>(v >> 63);
      }
      payload = f.type() == F::TYPE_SFIXED64 ? 8 : varint_size(d.bits);
      break;
    case F::TYPE_UINT64:
    case F::TYPE_FIXED64:
      if (!integer(0, std::numeric_limits<std::uint64_t>::max())) return false;
      payload = f.type() == F::TYPE_FIXED64 ? 8 : varint_size(d.bits);
      break;
    default:
      return false;
  }
  // A field without presence (proto3's plain singular fields) is not written when it holds its default.
  d.size = !f.has_presence() && d.bits == 0 ? 0 : hole.tag.size() + payload;
  return true;
}

char* TemplatedEncoder::write(std::size_t node, const std::vector<Drawn>& drawn,
                              const std::vector<std::size_t>& sizes, char* at) const {
  using F = gp::FieldDescriptor;
  for (const Item& item : m_nodes[node].items) {
    if (item.kind == Item::Kind::constant) {
      const std::string& c = m_constants[item.index];
      at = std::copy(c.begin(), c.end(), at);
    } else if (item.kind == Item::Kind::child) {
      const Node& child = m_nodes[item.index];
      at = std::copy(child.tag.begin(), child.tag.end(), at);
      at = write(item.index, drawn, sizes, put_varint(sizes[item.index], at));
    } else if (const Drawn& d = drawn[item.index]; d.size > 0) {
      const Hole& h = m_holes[item.index];
      at = std::copy(h.tag.begin(), h.tag.end(), at);
      switch (h.field->type()) {
        case F::TYPE_STRING:
          at = std::copy(d.text.begin(), d.text.end(), put_varint(d.text.size(), at));
          break;
        case F::TYPE_FLOAT:
        case F::TYPE_FIXED32:
        case F::TYPE_SFIXED32:
          at = put_fixed(d.bits, 4, at);
          break;
        case F::TYPE_DOUBLE:
        case F::TYPE_FIXED64:
        case F::TYPE_SFIXED64:
          at = put_fixed(d.bits, 8, at);
          break;
        default:
          at = put_varint(d.bits, at);
      }
    }
  }
  return at;
}

}  // namespace openloop::grpc
