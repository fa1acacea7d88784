// The gRPC flags and the HTTP/2 request a gRPC call becomes.
#include "cli/grpc_options.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <CLI/CLI.hpp>

#include "cli/grpc_reflection.h"
#include "core/atomic_file.h"
#include "core/grpc_status.h"
#include "core/units.h"
#include "engine/run_plan.h"
#include "grpc/framing.h"
#include "grpc/message.h"
#include "grpc/schema.h"
#include "http/request.h"
#include "workload/command_line_request.h"

namespace openloop::cli {

namespace {
constexpr const char* k_group = "gRPC";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c; });
  return out;
}

// The HTTP flags a gRPC call sets itself, or that mean nothing for it.
Result<void> check_http_flags(const RunOptions& o) {
  if (!o.body.empty()) return usage_error("--body: a gRPC call's message is --data JSON (or --data @FILE)");
  if (o.method != "GET")
    return usage_error("-X/--method: a gRPC call is always POST /package.Service/Method");
  if (o.success != "100-399")
    return usage_error("--success: a gRPC call succeeds by its status: use --grpc-success");
  if (o.http1_1 || (o.protocol != "auto" && o.protocol != "h2"))
    return usage_error(
        "--protocol: gRPC speaks HTTP/2 only (grpc:// by prior knowledge, grpcs:// by ALPN h2)");
  if (!o.targets.empty()) return usage_error("--targets: not with a grpc:// target (one --call per run)");
  if (!o.replay.empty()) return usage_error("--replay: not with a grpc:// target");
  if (!o.repeat.empty()) return usage_error("--repeat: not with a grpc:// target yet");
  return {};
}

// -H 'key: value' as gRPC metadata: the names gRPC reserves for itself are refused.
Result<void> check_metadata(const std::vector<std::string>& headers) {
  for (const auto& text : headers) {
    const http::Header h = OPENLOOP_TRY(http::parse_header_arg(text));
    const std::string name = lower(h.name);
    if (name == "content-type" || name == "te" || name.rfind("grpc-", 0) == 0 || name.rfind(':', 0) == 0) {
      return usage_error(
          fmt::format("-H {}: {} is reserved by gRPC (content-type, te and grpc-* are set by openloop; "
                      "grpc-timeout comes "
                      "from --timeout)",
                      text, h.name));
    }
  }
  return {};
}

// grpc://host:port → http://host:port (grpcs → https), refusing a path: the path is the method's.
Result<std::string> http_base(std::string_view url) {
  const bool tls = url.rfind("grpcs://", 0) == 0;
  std::string_view rest = url.substr(tls ? 8 : 7);
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty() || rest.find_first_of("/?#") != std::string_view::npos) {
    return usage_error(fmt::format(
        "{}: a gRPC target is grpc://host:port or grpcs://host:port (the method is --call, not a path)",
        url));
  }
  return fmt::format("{}://{}", tls ? "https" : "http", rest);
}

Result<std::string> message_json(const GrpcOptions& g) {
  if (g.data.empty()) return std::string("{}");
  if (g.data.front() != '@') return g.data;
  auto content = read_file(g.data.substr(1));
  if (!content) return usage_error(fmt::format("--data {}: {}", g.data, content.error().message));
  return std::move(*content);
}

}  // namespace

void add_grpc_options(CLI::App& sub, GrpcOptions& o) {
  sub.add_option("--call", o.call,
                 "With a grpc:// or grpcs:// target: the unary method to call, package.Service/Method (ghz's "
                 "package.Service.Method too)")
      ->type_name("SERVICE/METHOD")
      ->group(k_group);
  sub.add_option("--proto", o.proto, "The .proto file that defines --call's service (repeatable)")
      ->type_name("FILE")
      ->group(k_group);
  sub.add_option("--import-path", o.import_paths,
                 "Where --proto's imports are looked for (repeatable; then the .proto's own directory)")
      ->type_name("DIR")
      ->group(k_group);
  sub.add_option(
         "--protoset", o.protoset,
         "The schema as a FileDescriptorSet (protoc --include_imports -o FILE), instead of --proto; with "
         "neither, the schema comes from the server's reflection service")
      ->type_name("FILE")
      ->group(k_group);
  sub.add_option("--data", o.data,
                 "The request message as JSON (protobuf's JSON mapping, encoded once before the run), or "
                 "@FILE (default {})")
      ->type_name("JSON|@FILE")
      ->group(k_group);
  sub.add_option(
         "--grpc-success", o.success,
         "The gRPC statuses that count as a success, comma-separated names (default OK), e.g. OK,NOT_FOUND")
      ->type_name("NAMES")
      ->group(k_group);
}

bool is_grpc_target(std::string_view url) {
  return url.rfind("grpc://", 0) == 0 || url.rfind("grpcs://", 0) == 0;
}

Result<GrpcSuccess> parse_grpc_success(std::string_view names) {
  std::uint32_t mask = 0;
  std::size_t at = 0;
  while (at <= names.size()) {
    const std::size_t comma = std::min(names.find(',', at), names.size());
    const std::string_view name = names.substr(at, comma - at);
    const auto code = grpc_status_code(name);
    if (!code) {
      std::string known;
      for (int c = 0; c < static_cast<int>(k_grpc_status_codes); ++c)
        known.append(known.empty() ? "" : ", ").append(grpc_status_name(c));
      return usage_error(fmt::format(
          "--grpc-success {}: \"{}\" is not a gRPC status; expected names among {}", names, name, known));
    }
    mask |= 1U << *code;
    at = comma + 1;
  }
  // The worker judges a call by a range of codes, as an HTTP status by --success's range.
  const GrpcSuccess range{std::countr_zero(mask), 31 - std::countl_zero(mask)};
  if (std::popcount(mask) != range.max - range.min + 1) {
    return usage_error(fmt::format(
        "--grpc-success {}: the statuses must be neighbours in code order (0 OK, 1 CANCELLED, ... 16 "
        "UNAUTHENTICATED); a set with gaps is not supported yet",
        names));
  }
  return range;
}

Result<void> check_no_grpc_flags(const GrpcOptions& g) {
  const GrpcOptions none;
  const char* given = !g.call.empty()             ? "--call"
                      : !g.proto.empty()          ? "--proto"
                      : !g.import_paths.empty()   ? "--import-path"
                      : !g.protoset.empty()       ? "--protoset"
                      : !g.data.empty()           ? "--data"
                      : g.success != none.success ? "--grpc-success"
                                                  : nullptr;
  if (given != nullptr) return usage_error(fmt::format("{}: needs a grpc:// or grpcs:// target", given));
  return {};
}

Result<GrpcCall> prepare_grpc_call(const RunOptions& o, const GrpcOptions& g) {
  GrpcCall call;
  call.target = o.url;
  const std::string base = OPENLOOP_TRY(http_base(o.url));
  OPENLOOP_TRY_VOID(check_http_flags(o));
  OPENLOOP_TRY_VOID(check_metadata(o.headers));
  if (g.call.empty())
    return usage_error(fmt::format("{}: a gRPC target needs --call package.Service/Method", o.url));
  if (!g.proto.empty() && !g.protoset.empty())
    return usage_error("--proto and --protoset: give one schema, not both");
  if (!g.import_paths.empty() && g.proto.empty()) return usage_error("--import-path: applies to --proto");
  call.success = OPENLOOP_TRY(parse_grpc_success(g.success));
  // Neither --proto nor --protoset: the server's reflection service, asked before anything else is sent.
  const auto schema = !g.proto.empty()      ? OPENLOOP_TRY(grpc::Schema::from_protos(g.proto, g.import_paths))
                      : !g.protoset.empty() ? OPENLOOP_TRY(grpc::Schema::from_protoset(g.protoset))
                                            : OPENLOOP_TRY(schema_from_reflection(o, base, g.call));
  const google::protobuf::MethodDescriptor* method = OPENLOOP_TRY(schema->find_method(g.call));
  call.call = method->service()->full_name() + "/" + method->name();
  const std::string json = OPENLOOP_TRY(message_json(g));
  if ((g.data.empty() || g.data.front() != '@') && workload::has_template(json))
    return usage_error(
        "--data: {{templates}} in a gRPC message are not supported yet (the message is encoded once)");
  const Nanos timeout = OPENLOOP_TRY(parse_duration(o.timeout, "--timeout"));

  RunOptions& r = call.options;
  r = o;
  r.url = fmt::format("{}/{}", base, call.call);
  r.protocol = "h2";
  r.http2 = false;
  r.method = "POST";
  r.headers.push_back("content-type: application/grpc");
  r.headers.push_back("te: trailers");
  if (timeout.count() > 0) r.headers.push_back("grpc-timeout: " + grpc::grpc_timeout(timeout));
  // The message is encoded here, once: every call sends the same bytes.
  r.body = OPENLOOP_TRY(grpc::MessageEncoder(*method).framed(json, "--data"));
  // The run reads "{{" in a body as a template: a message whose bytes hold it (a bytes field) would be
  // rendered, not sent as it is.
  if (workload::has_template(r.body))
    return usage_error(
        "--data: the encoded message holds the bytes \"{{\", which the run would read as a template");
  return call;
}

void apply_grpc_call(const GrpcCall& call, engine::RunPlan& plan) {
  plan.url_text = call.target;
  plan.success_min = call.success.min;
  plan.success_max = call.success.max;
  for (engine::RequestSpec& spec : plan.requests) {
    spec.name = call.call;
    spec.success_min = call.success.min;
    spec.success_max = call.success.max;
  }
}

}  // namespace openloop::cli
