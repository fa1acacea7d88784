// Tests for a templated request message compiled once: for many drawn values, the same bytes as libprotobuf's
// JSON parser, or a refusal when it refuses; the templates it leaves to libprotobuf; no allocation per call.
#include "grpc/templated_encoder.h"

#include <atomic>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <map>
#include <new>
#include <random>

#include <fmt/format.h>
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

namespace {
std::atomic<std::uint64_t> g_allocations{0};
thread_local bool t_counted = false;  // this thread's allocations are counted (one test turns it on)

void* counted_alloc(std::size_t n) {
  if (t_counted) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
}  // namespace

// The counting hook, for this test executable (grpc_test) only; it counts nothing unless a test turns it on.
void* operator new(std::size_t n) {
  return counted_alloc(n);
}
void* operator new[](std::size_t n) {
  return counted_alloc(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  if (t_counted) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  if (t_counted) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace openloop::grpc {
namespace {

namespace gp = google::protobuf;

// .proto files held in memory, their imports of google/protobuf/*.proto from libprotobuf-dev's copies.
class Files final : public gp::compiler::SourceTree {
 public:
  explicit Files(std::map<std::string, std::string> files) : m_files(std::move(files)) {
    m_installed.MapPath("", "/usr/include");
  }
  gp::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    const auto it = m_files.find(filename);
    if (it == m_files.end()) return m_installed.Open(filename);
    return new gp::io::ArrayInputStream(it->second.data(), static_cast<int>(it->second.size()));
  }

 private:
  std::map<std::string, std::string> m_files;
  gp::compiler::DiskSourceTree m_installed;
};

struct NoErrors : gp::compiler::MultiFileErrorCollector {
  void AddError(const std::string&, int, int, const std::string& message) override {
    ADD_FAILURE() << message;
  }
};

// The method of file `name`'s first service. t.proto: every scalar type, presence of each kind (plain proto3,
// optional, oneof), an open enum, nesting, what the fast path leaves alone (repeated, map, bytes, a
// well-known type). p.proto: proto2's presence and closed enum.
const gp::MethodDescriptor& method(const std::string& name = "t.proto") {
  static Files tree({{"t.proto", R"(syntax = "proto3";
package t;
import "google/protobuf/duration.proto";
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; NEGATIVE = -3; }
message Key { string id = 1; int64 n = 2; Key inner = 3; Color color = 4; }
message All {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5; sint64 s64 = 6;
  fixed32 f32 = 7; fixed64 f64 = 8; sfixed32 sf32 = 9; sfixed64 sf64 = 10; bool flag = 11; string name = 12;
  double d = 13; float f = 14; Color color = 15; Key key = 16; optional int32 opt = 17;
  oneof choice { string text = 18; int32 number = 19; Key chosen = 25; }
  repeated int32 list = 20; map<string, int32> counts = 21; bytes raw = 22; repeated Key keys = 23;
  google.protobuf.Duration wait = 24;
}
service S { rpc Call(All) returns (All); }
)"},
                     {"p.proto", R"(syntax = "proto2";
package p;
enum Level { LOW = 1; HIGH = 2; }
message M { optional int32 a = 1; optional Level level = 2; optional string s = 3; required sint64 r = 4;
            optional double d = 5 [default = 2.5]; }
service P { rpc Call(M) returns (M); }
)"}});
  static NoErrors errors;
  static gp::compiler::Importer importer(&tree, &errors);
  return *importer.Import(name)->service(0)->method(0);
}

// Values a template's variables could draw, the awkward ones included: out of each type's range, forms the
// JSON mapping reads but the fast path leaves alone, text that breaks the JSON around it.
std::vector<std::string> awkward() {
  return {"0",
          "1",
          "-1",
          "7",
          "-0",
          "007",
          "+5",
          "2147483647",
          "2147483648",
          "-2147483648",
          "-2147483649",
          "4294967295",
          "4294967296",
          "9223372036854775807",
          "9223372036854775808",
          "-9223372036854775808",
          "-9223372036854775809",
          "18446744073709551615",
          "18446744073709551616",
          "9007199254740992",
          "9007199254740993",
          "16777216",
          "16777217",
          "1.0",
          "1.5",
          "-0.0",
          "0.0",
          "1e3",
          "1E-2",
          "-2.5e-3",
          "3.4028234663852886e38",
          "3.4028235677973366e38",
          "3.5e38",
          "1e308",
          "1e400",
          "1e-400",
          "4.9e-324",
          "true",
          "false",
          "null",
          "RED",
          "GREEN",
          "NEGATIVE",
          "COLOR_UNSPECIFIED",
          "LOW",
          "HIGH",
          "BLUE",
          "red",
          "-3",
          "2",
          "99",
          "abc",
          "a\"b",
          "a\\\"b",
          "x\\u0041",
          "\xc3\xa9",
          "",
          " 5",
          "5 ",
          "\t",
          "{}",
          "[]",
          "1, \"i32\": 2",
          "\"q\"",
          "NaN",
          "Infinity",
          "0x10",
          ".5",
          "5."};
}

// One value: an awkward one, an integer of some magnitude and sign, or a double's shortest text.
std::string draw(std::mt19937_64& rng) {
  static const std::vector<std::string> k_awkward = awkward();
  switch (rng() % 4) {
    case 0:
      return k_awkward[rng() % k_awkward.size()];
    case 1: {
      const std::uint64_t v = rng() >> (rng() % 64);
      return rng() % 2 == 0 ? std::to_string(v) : "-" + std::to_string(v);
    }
    case 2: {
      const double d = std::bit_cast<double>(rng());
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, d);
      return std::string(buf, r.ptr);
    }
    default:
      return std::to_string(static_cast<std::int64_t>(rng() % 2000) - 1000);
  }
}

// The template with each {{...}} replaced by a drawn value.
std::string render(std::string_view t, std::mt19937_64& rng) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open = t.find("{{"); open != std::string_view::npos; open = t.find("{{", at)) {
    const std::size_t close = t.find("}}", open);
    out.append(t.substr(at, open - at)).append(draw(rng));
    at = close + 2;
  }
  return out.append(t.substr(at));
}

// Templates the fast path compiles: each scalar field alone, bare and quoted where the JSON mapping reads
// both; then several at once, nesting, presence of each kind, constants of what the fast path does not
// follow.
std::vector<std::string> fast_templates() {
  std::vector<std::string> out;
  for (const char* f : {"i32", "i64", "u32", "u64", "s32", "s64", "f32", "f64", "sf32", "sf64", "flag", "d",
                        "f", "color", "opt", "number"})
    out.push_back(fmt::format(R"({{"{}": {{{{a}}}}}})", f));
  for (const char* f : {"i32", "i64", "u32", "u64", "s32", "s64", "f32", "f64", "sf32", "sf64", "color",
                        "name", "text", "opt"})
    out.push_back(fmt::format(R"({{"{}": "{{{{a}}}}"}})", f));
  out.insert(
      out.end(),
      {
          R"({"name": "user-{{a}}-{{b}}", "i64": "{{c}}", "i32": 16})",
          R"({"key": {"id": "user-{{a}}", "n": {{b}}, "inner": {"n": "{{c}}", "inner": {"id": "{{d}}"}}}, "i32": 16})",
          R"({ "list": [1, 2, 3], "raw": "AAE=", "wait": "1.5s", "key": {"color": {{a}}}, "counts": {"x": 1},
          "chosen": {"n": {{b}}}, "keys": [{"id": "k"}], "sf64": "-5" })",
          R"({"key": {"id": "user-{{uniform(1000, 9999)}}", "n": {{zipf(10000, 1.1)}}}, "i32": 16})",
      });
  return out;
}

TEST(TemplatedEncoder, EncodesAsLibprotobufDoesForManyDrawnValues) {
  const MessageEncoder slow(method());
  const MessageEncoder slow2(method("p.proto"));
  std::vector<std::pair<const MessageEncoder*, std::string>> cases;
  for (const std::string& t : fast_templates()) cases.emplace_back(&slow, t);
  for (const std::string t :
       {R"({"a": {{a}}, "level": {{b}}, "r": 1})", R"({"level": "{{a}}", "s": "{{b}}", "r": 1})",
        R"({"r": "{{a}}", "d": {{b}}})", R"({"r": {{a}}, "s": "{{b}}"})"})
    cases.emplace_back(&slow2, t);
  std::mt19937_64 rng(29);
  for (const auto& [reference, t] : cases) {
    const TemplatedEncoder encoder(reference == &slow ? method() : method("p.proto"), t);
    EXPECT_EQ(encoder.slow_reason(), "") << t;
    std::size_t fast = 0, encoded = 0;
    constexpr int k_draws = 3000;
    for (int i = 0; i < k_draws; ++i) {
      const std::string rendered = render(t, rng);
      std::string a, b, scratch;
      const bool ok = encoder.frame_into(rendered, a);
      ASSERT_EQ(ok, reference->frame_into(rendered, b, scratch)) << rendered << "\n" << a << "\n" << b;
      if (ok) {
        ASSERT_EQ(a, b) << rendered;
        ++encoded;
      }
      std::string c;
      if (encoder.frame_fast(rendered, c)) {
        ASSERT_TRUE(ok) << rendered;
        ASSERT_EQ(c, b) << rendered;
        ++fast;
      }
    }
    // The draws are mostly awkward: still, the fast path must have said something for a share of them.
    EXPECT_GT(fast, 0U) << t;
    EXPECT_GE(encoded, fast) << t;
  }
}

// A template around the fields the fast path does not follow still encodes every call, through libprotobuf.
TEST(TemplatedEncoder, LeavesWhatItDoesNotCoverToLibprotobuf) {
  const MessageEncoder slow(method());
  std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"key": {{a}}})", "message field"},     {R"({"list": [1, {{a}}]})", "inside an array"},
      {R"({"list": {{a}}})", "repeated field"},   {R"({"counts": {"{{a}}": 1}})", "key"},
      {R"({"counts": {"x": {{a}}}})", "map"},     {R"({"{{a}}": 1})", "key"},
      {R"({"raw": "{{a}}"})", "bytes"},           {R"({"wait": "{{a}}s"})", "well-known"},
      {R"({"name": {{a}}})", "outside quotes"},   {R"({"flag": "{{a}}"})", "inside quotes"},
      {R"({"name": "a\n{{a}}"})", "escape"},      {R"({"i32": -{{a}}})", "not JSON"},
      {R"({"i32": {{a}}0})", "followed by text"}, {R"({"i32": 1, "i32": {{a}}})", "twice"},
      {R"({"text": "x", "number": {{a}}})", ""},  // two of a oneof: refused, or not what libprotobuf writes
      {R"({"i32": "x{{a}}"})", "text beside it"}, {R"({"i64": "{{a}}{{a}}"})", "text beside it"},
  };
  cases.emplace_back(R"({"i32": {{a}}, "list": )" + std::string(150, '[') + std::string(150, ']') + "}",
                     "deeper than 100");
  std::mt19937_64 rng(46);
  for (const auto& [t, why] : cases) {
    const TemplatedEncoder encoder(method(), t);
    EXPECT_FALSE(encoder.slow_reason().empty()) << t;
    EXPECT_NE(encoder.slow_reason().find(why), std::string::npos) << t << ": " << encoder.slow_reason();
    for (int i = 0; i < 200; ++i) {
      const std::string rendered = render(t, rng);
      std::string a, b, scratch;
      EXPECT_FALSE(encoder.frame_fast(rendered, a));
      const bool ok = encoder.frame_into(rendered, a);
      ASSERT_EQ(ok, slow.frame_into(rendered, b, scratch)) << rendered;
      EXPECT_EQ(a, b) << rendered;  // the bytes, or the same words of refusal
    }
  }
}

// A drawn value that does not fit is refused in libprotobuf's words, as before the template was compiled.
TEST(TemplatedEncoder, ADrawnValueOutOfRangeIsRefusedAsBefore) {
  const TemplatedEncoder encoder(method(), R"({"key": {"id": "u-{{a}}"}, "i32": {{b}}})");
  ASSERT_EQ(encoder.slow_reason(), "");
  std::string out;
  ASSERT_TRUE(encoder.frame_fast(R"({"key": {"id": "u-7"}, "i32": -2147483648})", out));
  std::string slow, scratch;
  ASSERT_TRUE(
      MessageEncoder(method()).frame_into(R"({"key": {"id": "u-7"}, "i32": -2147483648})", slow, scratch));
  EXPECT_EQ(out, slow);
  EXPECT_EQ(out.size(), 5U + 11 + 8);  // i32: its tag and ten bytes of varint; key (field 16: a 2-byte tag)
  EXPECT_FALSE(encoder.frame_fast(R"({"key": {"id": "u-7"}, "i32": 2147483648})", out));
  EXPECT_FALSE(encoder.frame_into(R"({"key": {"id": "u-7"}, "i32": 2147483648})", out));
  EXPECT_NE(out.find("the JSON does not fit t.All"), std::string::npos) << out;
}

// Once the caller's buffer and the thread's have grown, a call allocates nothing.
TEST(TemplatedEncoder, ACallAllocatesNothingOnceWarm) {
  const TemplatedEncoder encoder(
      method(),
      R"({"key": {"id": "user-{{a}}-and-a-long-suffix-past-the-small-string", "n": {{b}}}, "i32": 16})");
  ASSERT_EQ(encoder.slow_reason(), "");
  std::vector<std::string> rendered;
  for (int i = 0; i < 100; ++i)
    rendered.push_back(R"({"key": {"id": "user-)" + std::to_string(i * 7919) +
                       R"(-and-a-long-suffix-past-the-small-string", "n": )" + std::to_string(i * 104729) +
                       "}, \"i32\": 16}");
  std::string out;
  for (const std::string& r : rendered) ASSERT_TRUE(encoder.frame_into(r, out)) << r;  // warm
  g_allocations = 0;
  t_counted = true;
  bool all = true;
  for (int round = 0; round < 10; ++round)
    for (const std::string& r : rendered) all = encoder.frame_into(r, out) && all;
  t_counted = false;
  EXPECT_TRUE(all);
  EXPECT_EQ(g_allocations.load(), 0U);
}

}  // namespace
}  // namespace openloop::grpc
