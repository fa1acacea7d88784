// Microbenchmarks of the per-request workload costs: Zipf key sampling and request template rendering (the
// parts, then their HTTP/1.1 form as the codec writes it per attempt).
#include <benchmark/benchmark.h>

#include <string>

#include "core/rng.h"
#include "http/request_buffer.h"
#include "http/request_http1.h"
#include "net/url.h"
#include "workload/generator.h"
#include "workload/request_template.h"
#include "workload/variables.h"
#include "workload/zipf.h"

namespace {

using namespace openloop;
using namespace openloop::workload;

void BM_ZipfSample(benchmark::State& state) {
  const ZipfDistribution zipf(static_cast<std::uint64_t>(state.range(0)), 1.1);
  Rng rng(42);
  for (auto _ : state) benchmark::DoNotOptimize(zipf.sample(rng));
  state.SetItemsProcessed(state.iterations());
}

void BM_ZipfGeneratorNext(benchmark::State& state) {
  const Generator g = Generator::zipf(10000, 1.1);
  GeneratorState s = g.start(42, 1, 0, 1);
  for (auto _ : state) benchmark::DoNotOptimize(g.next(s));
  state.SetItemsProcessed(state.iterations());
}

RequestTemplate make_template(VariableSet& vars, bool with_body) {
  RequestText spec;
  spec.name = "bench";
  spec.path = {"/item/{{sku}}?region={{region}}", "path"};
  spec.headers = {{"Accept", {"application/json", "h"}}, {"X-Request", {"{{sequence(1)}}", "h"}}};
  if (with_body) {
    spec.method = {"POST", "method"};
    spec.body = {"{\"sku\": {{sku}}, \"quantity\": {{uniform(1, 5)}}}", "body"};
  }
  const net::Url base = *net::parse_url("http://127.0.0.1:8080");
  return *RequestTemplate::compile(spec, base, vars, ".", 0);
}

// `serialize`: each request's parts are also written as HTTP/1.1 text (what a request costs on the hot path).
void render(benchmark::State& state, bool with_body, bool serialize = true) {
  VariableSet vars;
  (void)vars.declare("sku", Generator::zipf(10000, 1.1), "sku");
  (void)vars.declare("region", Generator::choice({"eu", "us", "ap"}), "region");
  const RequestTemplate t = make_template(vars, with_body);
  RenderContext ctx(vars, 1, 42, 0, 1);
  http::RequestBuffer parts;
  std::string out;
  std::size_t bytes = 0;
  for (auto _ : state) {
    t.render(ctx, parts);
    if (serialize) http::write_http1(parts.parts(), http::ExtraHeader{}, out);
    bytes += serialize ? out.size() : parts.parts().body.size() + parts.parts().target.size();
    benchmark::DoNotOptimize(out.data());
    benchmark::DoNotOptimize(parts.parts().body.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void BM_RenderGet(benchmark::State& state) {
  render(state, false);
}
void BM_RenderPostWithBody(benchmark::State& state) {
  render(state, true);
}
void BM_RenderGetPartsOnly(benchmark::State& state) {
  render(state, false, false);
}
void BM_RenderPostWithBodyPartsOnly(benchmark::State& state) {
  render(state, true, false);
}

void BM_RenderConstant(benchmark::State& state) {
  VariableSet vars;
  RequestText spec;
  spec.name = "health";
  spec.path = {"/health", "path"};
  const RequestTemplate t =
      *RequestTemplate::compile(spec, *net::parse_url("http://127.0.0.1:8080"), vars, ".", 0);
  RenderContext ctx(vars, 1, 42, 0, 1);
  http::RequestBuffer out;
  for (auto _ : state) {
    t.render(ctx, out);
    benchmark::DoNotOptimize(out.parts().target.data());
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_ZipfSample)->Arg(1000)->Arg(1'000'000)->Arg(1'000'000'000);
BENCHMARK(BM_ZipfGeneratorNext);
BENCHMARK(BM_RenderGet);
BENCHMARK(BM_RenderPostWithBody);
BENCHMARK(BM_RenderGetPartsOnly);
BENCHMARK(BM_RenderPostWithBodyPartsOnly);
BENCHMARK(BM_RenderConstant);
