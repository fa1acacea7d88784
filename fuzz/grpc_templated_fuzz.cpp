// Fuzz target: a templated gRPC message's compiled path (grpc::TemplatedEncoder) against libprotobuf's JSON
// parser (grpc::MessageEncoder). The first byte picks a template, the rest (split at NUL bytes) are the drawn
// values put in its placeholders; both paths must give the same bytes, or both refuse. Nothing crashes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "grpc/message.h"
#include "grpc/templated_encoder.h"

namespace {

namespace gp = google::protobuf;

class OneFile final : public gp::compiler::SourceTree {
 public:
  gp::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    static constexpr std::string_view k_text = R"(syntax = "proto3";
package t;
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; NEGATIVE = -3; }
message Key { string id = 1; int64 n = 2; Key inner = 3; Color color = 4; }
message All {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5; sint64 s64 = 6;
  fixed32 f32 = 7; fixed64 f64 = 8; sfixed32 sf32 = 9; sfixed64 sf64 = 10; bool flag = 11; string name = 12;
  double d = 13; float f = 14; Color color = 15; Key key = 16; optional int32 opt = 17;
  oneof choice { string text = 18; int32 number = 19; }
  repeated int32 list = 20;
}
service S { rpc Call(All) returns (All); }
)";
    if (filename != "t.proto") return nullptr;
    return new gp::io::ArrayInputStream(k_text.data(), static_cast<int>(k_text.size()));
  }
};

struct Quiet : gp::compiler::MultiFileErrorCollector {
  void AddError(const std::string&, int, int, const std::string&) override {}
};

const std::vector<std::string> k_templates = {
    R"({"i32": {{a}}, "i64": "{{b}}", "u32": {{c}}, "u64": "{{d}}", "s32": {{e}}, "s64": {{f}}})",
    R"({"f32": {{a}}, "f64": "{{b}}", "sf32": {{c}}, "sf64": {{d}}, "flag": {{e}}, "name": "user-{{f}}-{{g}}"})",
    R"({"d": {{a}}, "f": {{b}}, "color": "{{c}}", "opt": {{d}}, "text": "{{e}}", "list": [1, 2]})",
    R"({"key": {"id": "u-{{a}}", "n": {{b}}, "inner": {"n": "{{c}}", "color": {{d}}}}, "number": {{e}}})",
};

struct Encoders {
  OneFile tree;
  Quiet errors;
  gp::compiler::Importer importer{&tree, &errors};
  const gp::MethodDescriptor& method = *importer.Import("t.proto")->service(0)->method(0);
  openloop::grpc::MessageEncoder slow{method};
  std::vector<std::unique_ptr<openloop::grpc::TemplatedEncoder>> fast;
  Encoders() {
    for (const std::string& t : k_templates) {
      fast.push_back(std::make_unique<openloop::grpc::TemplatedEncoder>(method, t));
      if (!fast.back()->slow_reason().empty()) std::abort();  // each template compiles to the fast path
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Encoders e;
  if (size == 0) return 0;
  const std::size_t which = data[0] % k_templates.size();
  std::string_view values(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string& t = k_templates[which];
  std::string rendered;
  std::size_t at = 0;
  for (std::size_t open = t.find("{{"); open != std::string::npos; open = t.find("{{", at)) {
    const std::size_t nul = values.find('\0');
    rendered.append(t, at, open - at).append(values.substr(0, nul));
    values = nul == std::string_view::npos ? std::string_view() : values.substr(nul + 1);
    at = t.find("}}", open) + 2;
  }
  rendered.append(t, at);
  std::string a, b, scratch;
  const bool ok = e.fast[which]->frame_into(rendered, a);
  if (ok != e.slow.frame_into(rendered, b, scratch) || (ok && a != b)) std::abort();
  return 0;
}
