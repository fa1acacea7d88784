// What a templated gRPC message costs per call: the rendered JSON → protobuf binary → framed, by
// libprotobuf's JSON parser (grpc::MessageEncoder, the path before) and by the compiled template
// (grpc::TemplatedEncoder, the engine's BodyEncoder now), beside the constant message's cost (none per call).
#include <benchmark/benchmark.h>
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "grpc/message.h"
#include "grpc/templated_encoder.h"

namespace {

namespace gp = google::protobuf;

struct Quiet : gp::compiler::MultiFileErrorCollector {
  void AddError(const std::string&, int, int, const std::string&) override {}
};

// One .proto held in memory (libprotobuf's own MockSourceTree is not installed).
class OneFile final : public gp::compiler::SourceTree {
 public:
  OneFile(std::string name, std::string text) : m_name(std::move(name)), m_text(std::move(text)) {}
  gp::io::ZeroCopyInputStream* Open(const std::string& filename) override {
    if (filename != m_name) return nullptr;
    return new gp::io::ArrayInputStream(m_text.data(), static_cast<int>(m_text.size()));
  }

 private:
  std::string m_name, m_text;
};

// The e2e schema's request (tests/e2e/grpc/protos/bench.proto), inline.
const gp::MethodDescriptor& method() {
  static OneFile tree("bench.proto", R"(syntax = "proto3";
package openloop.test.v1;
message Key { string id = 1; int64 n = 2; }
message CallRequest { Key key = 1; string note = 2; int32 size = 3; }
message CallReply { bytes payload = 1; int64 served = 2; }
service Bench { rpc Call(CallRequest) returns (CallReply); }
)");
  static Quiet errors;
  static gp::compiler::Importer importer(&tree, &errors);
  return *importer.Import("bench.proto")->service(0)->method(0);
}

void BM_EncodeRenderedJson(benchmark::State& state) {
  const openloop::grpc::MessageEncoder encoder(method());
  const std::string json = R"({"key": {"id": "user-4711", "n": 4711}, "size": 16})";
  for (auto _ : state) {
    auto framed = encoder.framed(json, "--data");
    benchmark::DoNotOptimize(framed->data());
  }
}
BENCHMARK(BM_EncodeRenderedJson);

// The message rendered from its template, as the worker encoded it per call before the template was
// compiled: libprotobuf's JSON parser on a fresh message, into reused buffers.
const std::string k_template =
    R"({"key": {"id": "user-{{uniform(1000, 9999)}}", "n": {{zipf(10000, 1.1)}}}, "size": 16})";
const std::string k_rendered = R"({"key": {"id": "user-4711", "n": 4711}, "size": 16})";

void BM_EncodeTemplatedByLibprotobuf(benchmark::State& state) {
  const openloop::grpc::MessageEncoder encoder(method());
  std::string out, scratch;
  for (auto _ : state) {
    encoder.frame_into(k_rendered, out, scratch);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_EncodeTemplatedByLibprotobuf);

// The same with the template compiled (grpc::TemplatedEncoder, what the worker does now): the rendered text
// matched against the template's, the two drawn values read and encoded, the rest written before the run.
void BM_EncodeTemplatedCompiled(benchmark::State& state) {
  const openloop::grpc::TemplatedEncoder encoder(method(), k_template);
  if (!encoder.slow_reason().empty()) state.SkipWithError(encoder.slow_reason().c_str());
  std::string out;
  for (auto _ : state) {
    encoder.frame_into(k_rendered, out);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_EncodeTemplatedCompiled);

}  // namespace
