// The gRPC flags and the HTTP/2 request a gRPC call becomes.
#include "cli/grpc_options.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/grpc_reflection.h"
#include "cli/grpc_templated.h"
#include "core/atomic_file.h"
#include "core/grpc_checks.h"
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
  if (!o.targets.empty()) {
    return usage_error(
        "--targets: not with a grpc:// target: a targets file lists HTTP requests to one host, and a gRPC "
        "run makes its one --call to its one server; for several servers run one openloop each (at the "
        "same --start-at) and add their results with `openloop merge`");
  }
  if (!o.replay.empty()) return usage_error("--replay: not with a grpc:// target");
  return {};
}

// -H 'key: value' as gRPC metadata: the names gRPC reserves for itself are refused; a binary key's value
// (key-bin) must be base64, which goes on the wire as it is.
Result<void> check_metadata(const std::vector<std::string>& headers) {
  for (const auto& text : headers) {
    const http::Header h = OPENLOOP_TRY(http::parse_header_arg(text));
    const std::string name = lower(h.name);
    if (name.size() > 4 && name.ends_with("-bin") && !is_base64(h.value)) {
      return usage_error(fmt::format(
          "-H {}: {} is binary metadata (a key ending in -bin), whose value is base64 (A-Z a-z 0-9 + /, "
          "padded with = or not); \"{}\" is not",
          text, h.name, h.value));
    }
    if (is_reserved_grpc_metadata(name)) {
      return usage_error(
          fmt::format("-H {}: {} is reserved by gRPC (content-type, te and grpc-* are set by openloop; "
                      "grpc-timeout comes "
                      "from --timeout)",
                      text, h.name));
    }
  }
  return {};
}

}  // namespace

namespace {

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
  sub.add_option(
         "--data", o.data,
         "The request message as JSON (protobuf's JSON mapping; encoded once, or per call with "
         "{{templates}}), a JSON array of messages sent in turn, or @FILE holding either (default {})")
      ->type_name("JSON|@FILE")
      ->group(k_group);
  sub.add_option(
         "--grpc-success", o.success,
         "The gRPC statuses that count as a success, comma-separated names or codes (default OK), e.g. "
         "OK,NOT_FOUND")
      ->type_name("NAMES")
      ->group(k_group);
}

Result<GrpcSuccess> parse_grpc_success(std::string_view names) {
  return GrpcSuccess{OPENLOOP_TRY(parse_grpc_status_set(names, "--grpc-success"))};
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
  auto schema = !g.proto.empty()      ? OPENLOOP_TRY(grpc::Schema::from_protos(g.proto, g.import_paths))
                : !g.protoset.empty() ? OPENLOOP_TRY(grpc::Schema::from_protoset(g.protoset))
                                      : OPENLOOP_TRY(schema_from_reflection(o, base, g.call));
  const google::protobuf::MethodDescriptor* method = OPENLOOP_TRY(schema->find_method(g.call));
  call.call = method->service()->full_name() + "/" + method->name();
  const std::string json = OPENLOOP_TRY(message_json(g));
  const Nanos timeout = OPENLOOP_TRY(parse_duration(o.timeout, "--timeout"));

  RunOptions& r = call.options;
  r = o;
  r.url = fmt::format("{}/{}", base, call.call);
  r.protocol = "h2";
  r.http2 = false;
  r.method = "POST";
  r.headers.push_back("content-type: application/grpc");
  r.headers.push_back("te: trailers");
  // grpc-timeout is the run's deadline header (--send-deadline's mechanism): each attempt sends its own
  // deadline, the per-try timeout's when a retry policy sets one (apply_grpc_call).
  if (!o.retry.send_deadline.empty())
    return usage_error("--send-deadline: a gRPC call's deadline goes out as grpc-timeout, set by openloop");
  call.send_timeout = timeout.count() > 0;
  if (const auto array = nlohmann::json::parse(json, nullptr, false); array.is_array()) {
    // A JSON array: its messages, each encoded once, sent in turn.
    if (array.empty()) return usage_error("--data: the JSON array holds no message");
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::string element = array[i].dump();
      const std::string where = fmt::format("--data [{}]", i + 1);  // as the requests are named
      if (workload::has_template(element))
        return usage_error(where + ": {{templates}} are for one message, not inside an array");
      call.messages.push_back(OPENLOOP_TRY(grpc::MessageEncoder(*method).framed(element, where)));
      if (workload::has_template(call.messages.back()))
        return usage_error(where +
                           ": the encoded message holds the bytes \"{{\", which the run would read as a "
                           "template");
    }
    r.body = call.messages.front();
    return call;
  }
  if (workload::has_template(json)) {
    // A templated message: its shape checked now, the JSON rendered and encoded per call.
    call.encoder = OPENLOOP_TRY(make_templated_encoder(std::move(schema), *method, json, "--data"));
    r.body = json;
    return call;
  }
  // A constant message is encoded here, once: every call sends the same bytes.
  r.body = OPENLOOP_TRY(grpc::MessageEncoder(*method).framed(json, "--data"));
  // The run reads "{{" in a body as a template: a message whose bytes hold it (a bytes field) would be
  // rendered, not sent as it is.
  if (workload::has_template(r.body))
    return usage_error(
        "--data: the encoded message holds the bytes \"{{\", which the run would read as a template");
  return call;
}

Result<void> apply_grpc_call(const GrpcCall& call, engine::RunPlan& plan) {
  plan.url_text = call.target;
  // The success set, by a mask of codes; the range (its lowest to its highest code) is what a reader that
  // knows no mask sees, never what a call is judged by.
  const std::uint32_t mask = call.success.mask;
  plan.grpc_success = mask;
  plan.success_min = std::countr_zero(mask);
  plan.success_max = 31 - std::countl_zero(mask);
  for (engine::RequestSpec& spec : plan.requests) {
    spec.name = call.call;
    spec.grpc_success = mask;
    spec.success_min = plan.success_min;
    spec.success_max = plan.success_max;
  }
  if (call.send_timeout) plan.retry.send_deadline = "grpc-timeout";
  if (call.encoder) {
    plan.body_encoder = call.encoder;
    for (engine::RequestSpec& spec : plan.requests) spec.encoder = plan.body_encoder.get();
  }
  if (call.messages.size() > 1) {
    const engine::RequestSpec first = plan.requests.front();
    plan.requests.clear();
    for (std::size_t i = 0; i < call.messages.size(); ++i) {
      engine::RequestSpec& spec = plan.requests.emplace_back(first);
      spec.name = fmt::format("{} [{}]", call.call, i + 1);
      spec.request =
          OPENLOOP_TRY(http::build_request(first.method, plan.url, plan.headers, call.messages[i]));
    }
    plan.round_robin = true;
  }
  return {};
}

}  // namespace openloop::cli
