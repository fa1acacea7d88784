// A plan file's gRPC calls made ready to send (cli/grpc_plan.h).
#include "cli/grpc_plan.h"

#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <google/protobuf/descriptor.h>

#include "cli/grpc_options.h"
#include "cli/grpc_reflection.h"
#include "cli/grpc_templated.h"
#include "grpc/message.h"
#include "grpc/schema.h"
#include "http/request_copy.h"
#include "workload/grpc_call.h"

namespace openloop::cli {
namespace {

struct PreparedCall {
  const workload::GrpcCallText* text = nullptr;
  std::string method;  ///< package.Service/Method, as the schema names it
  std::string framed;  ///< a constant message, framed once
  std::shared_ptr<const engine::BodyEncoder>
      encoder;  ///< a templated one's (its schema kept by PreparedCalls)
};

struct PreparedCalls {
  std::string source;                                        ///< where the schema came from, for validate
  std::vector<std::shared_ptr<const grpc::Schema>> schemas;  ///< the calls' descriptors live as long as these
  std::vector<PreparedCall> calls;
};

// An error of the flags' wording ("--call X: ...", "--proto F: ...") placed in the file: "plan.yaml:9:5:
// requests.lookup (scenario mixed): call X: ...".
Error in_plan(const Error& e, std::string_view where) {
  std::string_view message = e.message;
  if (message.rfind("--", 0) == 0) message.remove_prefix(2);
  return Error{e.code, fmt::format("{}: {}", where, message)};
}

// "scenario a", "scenarios a, b", or "no scenario" for a request none uses.
std::string scenarios_using(const workload::WorkloadPlan& file, std::size_t request) {
  std::vector<std::string> names;
  for (const workload::ScenarioPlan& s : file.scenarios) {
    bool uses = false;
    for (const auto& e : s.mix.entries()) uses = uses || e.request == request;
    for (const workload::Step& step : s.steps) uses = uses || step.request == request;
    if (uses) names.push_back(s.name);
  }
  if (names.empty()) return "used by no scenario";
  return fmt::format("{} {}", names.size() == 1 ? "scenario" : "scenarios", fmt::join(names, ", "));
}

// http(s)://host:port of the plan's target, where reflection is asked.
std::string reflection_base(const net::Url& target) {
  return fmt::format("{}://{}", target.tls ? "https" : "http", target.host_header);
}

Result<std::shared_ptr<const grpc::Schema>> file_schema(const workload::GrpcSchemaText& s) {
  if (!s.proto.empty()) {
    auto schema = grpc::Schema::from_protos(s.proto, s.import_paths);
    if (!schema) return tl::unexpected(in_plan(schema.error(), s.where));
    return std::shared_ptr<const grpc::Schema>(std::move(*schema));
  }
  if (!s.protoset.empty()) {
    auto schema = grpc::Schema::from_protoset(s.protoset);
    if (!schema) return tl::unexpected(in_plan(schema.error(), s.where));
    return std::shared_ptr<const grpc::Schema>(std::move(*schema));
  }
  return std::shared_ptr<const grpc::Schema>();
}

Result<std::shared_ptr<const PreparedCalls>> prepare(const RunOptions& o,
                                                     const workload::WorkloadPlan& file) {
  auto out = std::make_shared<PreparedCalls>();
  const workload::GrpcSchemaText& s = file.grpc->schema;
  const std::shared_ptr<const grpc::Schema> shared = OPENLOOP_TRY(file_schema(s));
  out->source = !s.proto.empty()      ? fmt::format("proto {}", fmt::join(s.proto, ", "))
                : !s.protoset.empty() ? fmt::format("protoset {}", s.protoset)
                                      : fmt::format("server reflection at {}", file.target_text);
  for (const workload::GrpcCallText& c : file.grpc->calls) {
    const std::string where = fmt::format("{} ({})", c.where, scenarios_using(file, c.request));
    std::shared_ptr<const grpc::Schema> schema = shared;
    if (!schema) {
      // Each call's own service asked for: a plan may call services the server describes in separate files.
      RunOptions named = o;
      named.url = file.target_text;
      auto got = schema_from_reflection(named, reflection_base(file.target), c.call);
      if (!got) return tl::unexpected(in_plan(got.error(), where));
      schema = std::move(*got);
    }
    const auto method = schema->find_method(c.call);
    if (!method) return tl::unexpected(in_plan(method.error(), where));
    out->schemas.push_back(schema);
    PreparedCall& p = out->calls.emplace_back();
    p.text = &c;
    p.method = (*method)->service()->full_name() + "/" + (*method)->name();
    if (file.requests[c.request].has_variables()) {
      // Rendered and encoded per call: its shape checked now.
      auto made = make_templated_encoder(schema, **method, c.message, "message");
      if (!made) return tl::unexpected(in_plan(made.error(), where));
      p.encoder = std::move(*made);
    } else {
      auto framed = grpc::MessageEncoder(**method).framed(c.message, "message");
      if (!framed) return tl::unexpected(in_plan(framed.error(), where));
      p.framed = std::move(*framed);
    }
  }
  return std::shared_ptr<const PreparedCalls>(std::move(out));
}

// The constant request with `body` in place of its message's JSON: the same method, target, authority and
// headers.
http::ConstantRequest with_body(const http::ConstantRequest& request, std::string_view body) {
  http::RequestBuffer out;
  http::copy_request(request.parts(), body, out);
  return http::ConstantRequest(std::move(out));
}

}  // namespace

Result<void> apply_plan_grpc_calls(const RunOptions& o, const workload::WorkloadPlan& file,
                                   std::vector<engine::RunPlan>& plans) {
  if (!file.grpc) return {};
  const std::shared_ptr<const PreparedCalls> prepared = OPENLOOP_TRY(prepare(o, file));
  for (engine::RunPlan& plan : plans) {
    if (plan.replay) continue;  // a replayed scenario's requests are the trace's
    for (const PreparedCall& c : prepared->calls) {
      engine::RequestSpec& spec = plan.requests[c.text->request];
      if (c.encoder) {
        spec.encoder = c.encoder.get();
        // Owned with every call's encoder and schema (an aliasing pointer): the plan keeps them all alive.
        plan.body_encoder = std::shared_ptr<const engine::BodyEncoder>(prepared, c.encoder.get());
      } else {
        spec.request = with_body(spec.request, c.framed);
      }
    }
  }
  return {};
}

Result<std::string> describe_plan_grpc_calls(const RunOptions& o, const workload::WorkloadPlan& file) {
  if (!file.grpc) return std::string();
  const std::shared_ptr<const PreparedCalls> prepared = OPENLOOP_TRY(prepare(o, file));
  std::string out = fmt::format("gRPC: schema from {}\n", prepared->source);
  for (const PreparedCall& c : prepared->calls) {
    out += fmt::format("  {}: call {} ({}), message {}{}\n", file.requests[c.text->request].name(), c.method,
                       scenarios_using(file, c.text->request), c.text->message,
                       c.encoder ? " (rendered and encoded per call)" : " (encoded once)");
  }
  return out;
}

}  // namespace openloop::cli
