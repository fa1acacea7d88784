// Loading a plan file: the document's top level (target, seed, defaults, variables, requests), then
// scenarios.
#include "workload/scenario_file.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/units.h"
#include "workload/flow_yaml.h"
#include "workload/grpc_call.h"
#include "workload/grpc_yaml.h"
#include "workload/scenario_yaml.h"
#include "workload/session_data_yaml.h"
#include "workload/target_override.h"
#include "workload/yaml_fields.h"

namespace openloop::workload {
namespace {

using yaml::Doc;
using yaml::Field;
using yaml::Fields;

/// A header as read: name, value template (with its position).
using HeaderText = std::pair<std::string, TemplateText>;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Result<void> check_name(const Doc& doc, const Field& f, const std::string& name, std::string_view kind) {
  const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
  });
  if (ok) return {};
  return usage_error(fmt::format("{}: \"{}\" is not a {} name; use letters, digits, _, - and .",
                                 doc.where(f.key_mark, f.path), name, kind));
}

Result<std::vector<HeaderText>> read_headers(const Doc& doc, const Field& f) {
  const Fields headers = OPENLOOP_TRY(Fields::read_named(doc, f, "headers (Name: value lines)"));
  std::vector<HeaderText> out;
  for (const auto& [name, value] : headers.entries()) {
    const std::string text = OPENLOOP_TRY(yaml::scalar(doc, value, "a header value is one line of text"));
    out.emplace_back(name, TemplateText{text, yaml::where(doc, value)});
  }
  return out;
}

/// A whole number from `min` to `max`, or a usage error naming the key's place and what is `accepted`.
Result<std::uint64_t> bounded_number(const Doc& doc, const Field& f, std::uint64_t min, std::uint64_t max,
                                     std::string_view accepted) {
  const std::string text = OPENLOOP_TRY(yaml::scalar(doc, f, accepted));
  std::uint64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < min || value > max)
    return usage_error(fmt::format("{}: \"{}\" is not accepted; {}", yaml::where(doc, f), text, accepted));
  return value;
}

struct Defaults {
  PlanDefaults plan;
  std::vector<HeaderText> headers;
  std::optional<GrpcSchemaText> grpc;  ///< `grpc:` the calls' schema; none: the server's reflection
  std::uint32_t grpc_success = 1;      ///< `grpc_success:` the calls' success statuses (default OK)
};

Result<Defaults> read_defaults(const Doc& doc, const Field& f, const std::filesystem::path& base_dir) {
  const Fields fields = OPENLOOP_TRY(Fields::read(doc, f,
                                                  {"headers", "timeout", "success", "protocol", "max_streams",
                                                   "h2_window", "connections", "grpc", "grpc_success"},
                                                  "defaults"));
  Defaults d;
  if (const Field* g = fields.find("grpc")) d.grpc = OPENLOOP_TRY(yaml::read_grpc_schema(doc, *g, base_dir));
  if (const Field* g = fields.find("grpc_success"))
    d.grpc_success = OPENLOOP_TRY(yaml::read_grpc_success(doc, *g));
  if (const Field* h = fields.find("headers")) d.headers = OPENLOOP_TRY(read_headers(doc, *h));
  for (const auto& [name, value] : d.headers) d.plan.headers.push_back({name, value.text});
  if (const Field* t = fields.find("timeout")) {
    const std::string text = OPENLOOP_TRY(yaml::scalar(doc, *t, "use a duration such as 2s"));
    d.plan.timeout = OPENLOOP_TRY(parse_duration(text, yaml::where(doc, *t)));
    if (d.plan.timeout == Nanos(0))
      return usage_error(fmt::format("{}: must be above 0, e.g. 2s", yaml::where(doc, *t)));
  }
  if (const Field* s = fields.find("success")) {
    const std::string text = OPENLOOP_TRY(yaml::scalar(doc, *s, "use e.g. 200-299"));
    d.plan.success = OPENLOOP_TRY(parse_status_range(text, yaml::where(doc, *s)));
  }
  if (const Field* p = fields.find("protocol")) {
    d.plan.protocol = OPENLOOP_TRY(yaml::scalar(doc, *p, "use auto, h1 or h2"));
    if (d.plan.protocol != "auto" && d.plan.protocol != "h1" && d.plan.protocol != "h2")
      return usage_error(
          fmt::format("{}: \"{}\" is not accepted; use auto, h1 or h2", yaml::where(doc, *p), d.plan.protocol));
  }
  // The bounds and wording of --max-streams, --h2-window and --connections.
  if (const Field* m = fields.find("max_streams")) {
    d.plan.max_streams = static_cast<std::uint32_t>(OPENLOOP_TRY(bounded_number(
        doc, *m, 1, 1U << 20, "give 1 to 1048576 streams per connection (HTTP/2 allows no more)")));
  }
  if (const Field* w = fields.find("h2_window")) {
    d.plan.h2_window = static_cast<std::uint32_t>(OPENLOOP_TRY(bounded_number(
        doc, *w, 1, 2147483647, "give a window of 1 to 2147483647 bytes (2^31 - 1, HTTP/2's largest)")));
  }
  if (const Field* c = fields.find("connections")) {
    d.plan.connections = OPENLOOP_TRY(bounded_number(
        doc, *c, 1, 10'000'000, "give 1 to 10000000 connections, or leave it out for the default"));
  }
  return d;
}

Result<RequestText> request_shorthand(const Doc& doc, const Field& f, const std::string& name,
                                      const StatusRange& success) {
  const std::string text = f.node.Scalar();
  const auto space = text.find(' ');
  // "METHOD /path": a method before the first space and a path after the spaces (a quoted "GET  " has none).
  const auto path_at = space == std::string::npos ? std::string::npos : text.find_first_not_of(' ', space);
  if (space == 0 || path_at == std::string::npos) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a request; write \"GET /path\" or a mapping with method, path, "
                    "headers, body, expect",
                    yaml::where(doc, f), text));
  }
  RequestText spec;
  spec.name = name;
  spec.success = success;
  const std::string at = yaml::where(doc, f);
  spec.method = {text.substr(0, space), at};
  spec.path = {text.substr(path_at), at};
  return spec;
}

Result<RequestText> read_request(const Doc& doc, const Field& f, const std::string& name,
                                 const StatusRange& success) {
  if (f.node.IsScalar()) return request_shorthand(doc, f, name, success);
  const Fields fields =
      OPENLOOP_TRY(Fields::read(doc, f, {"method", "path", "headers", "body", "expect"}, "a request"));
  RequestText spec;
  spec.name = name;
  spec.success = success;
  if (const Field* m = fields.find("method")) {
    spec.method = {OPENLOOP_TRY(yaml::scalar(doc, *m, "use e.g. GET or POST")), yaml::where(doc, *m)};
  }
  const Field* path = fields.find("path");
  if (path == nullptr) {
    return usage_error(fmt::format("{}: no path; give path: /item/{{{{sku}}}}", yaml::where(doc, f)));
  }
  spec.path = {OPENLOOP_TRY(yaml::scalar(doc, *path, "use a path such as /item/{{sku}}")),
               yaml::where(doc, *path)};
  if (const Field* h = fields.find("headers")) spec.headers = OPENLOOP_TRY(read_headers(doc, *h));
  if (const Field* b = fields.find("body")) {
    spec.body = {OPENLOOP_TRY(yaml::scalar(doc, *b, "a body is text (use | for several lines)")),
                 yaml::where(doc, *b)};
  }
  if (const Field* e = fields.find("expect")) {
    const std::string text = OPENLOOP_TRY(yaml::scalar(doc, *e, "use e.g. 200-299 or 201"));
    spec.success = OPENLOOP_TRY(parse_status_range(text, yaml::where(doc, *e)));
  }
  return spec;
}

// Defaults first, unless the request gives a header of the same name (case-insensitive).
void merge_default_headers(RequestText& spec, const std::vector<HeaderText>& defaults) {
  std::vector<HeaderText> merged;
  for (const HeaderText& d : defaults) {
    const bool overridden = std::any_of(spec.headers.begin(), spec.headers.end(),
                                        [&](const HeaderText& h) { return iequals(h.first, d.first); });
    if (!overridden) merged.push_back(d);
  }
  merged.insert(merged.end(), spec.headers.begin(), spec.headers.end());
  spec.headers = std::move(merged);
}

Result<void> read_target(const Doc& doc, const Fields& top, const std::string& override_text,
                         WorkloadPlan& plan) {
  const Field* t = top.find("target");
  if (t == nullptr) {
    return usage_error(
        fmt::format("{}: no target; a plan starts with target: http://host:port (the base URL)",
                    yaml::where(doc, top.self())));
  }
  plan.target_text = OPENLOOP_TRY(yaml::scalar(doc, *t, "use a URL such as http://127.0.0.1:8080"));
  // grpc://host:port is HTTP/2 by prior knowledge (grpcs://: TLS, ALPN h2): the requests' base URL is its
  // http(s):// form, and every scenario speaks HTTP/2 (engine/scenario_plans).
  const std::string& text = plan.target_text;
  const std::string url = !is_grpc_url(text)               ? text
                          : text.rfind("grpcs://", 0) == 0 ? "https://" + text.substr(8)
                                                           : "http://" + text.substr(7);
  plan.target = OPENLOOP_TRY(net::parse_url(url, yaml::where(doc, *t)));
  if (plan.target.target.find('?') != std::string::npos) {
    return usage_error(
        fmt::format("{}: \"{}\" has a query; the target is a base URL (scheme, host, port, path): "
                    "put queries in the requests' paths",
                    yaml::where(doc, *t), plan.target_text));
  }
  if (!override_text.empty()) {
    plan.target = retarget(plan.target, OPENLOOP_TRY(parse_target_override(override_text)));
    plan.target_text = url_text(plan.target);
  }
  return {};
}

Result<void> read_variables(const Doc& doc, const Field& f, const std::filesystem::path& base_dir,
                            WorkloadPlan& plan) {
  const Fields vars = OPENLOOP_TRY(Fields::read_named(doc, f, "variables (name: generator lines)"));
  for (const auto& [name, value] : vars.entries()) {
    const std::string expression =
        OPENLOOP_TRY(yaml::scalar(doc, value, "use a generator such as zipf(10000, 1.1)"));
    Generator g = OPENLOOP_TRY(Generator::parse(expression, yaml::where(doc, value), base_dir));
    OPENLOOP_TRY(plan.variables.declare(name, std::move(g), doc.where(value.key_mark, value.path)));
  }
  return {};
}

// A call's request (yaml::read_grpc_call), checked against the target and the default headers it gets.
Result<RequestText> read_call(const Doc& doc, const Field& field, const std::string& name,
                              const Defaults& defaults, const WorkloadPlan& plan, GrpcCallText& call) {
  RequestText spec = OPENLOOP_TRY(yaml::read_grpc_call(doc, field, name, defaults.grpc_success, call));
  if (plan.target.target != "/") {
    return usage_error(
        fmt::format("{}: a gRPC call's path is its method, and the target {} has the path {}; "
                    "give the target as scheme://host:port",
                    call.where, plan.target_text, plan.target.target));
  }
  for (const HeaderText& d : defaults.headers) {
    const bool own = std::any_of(spec.headers.begin(), spec.headers.end(),
                                 [&](const HeaderText& h) { return iequals(h.first, d.first); });
    if (!own) OPENLOOP_TRY_VOID(yaml::check_default_metadata(d.first, d.second, call));
  }
  return spec;
}

Result<void> read_requests(const Doc& doc, const Fields& top, const Defaults& defaults,
                           const std::filesystem::path& base_dir, WorkloadPlan& plan) {
  const std::vector<HeaderText>& default_headers = defaults.headers;
  const Field* f = top.find("requests");
  if (f == nullptr) {
    return usage_error(
        fmt::format("{}: no requests; name at least one, e.g. requests: {{get_item: GET /item/1}}",
                    yaml::where(doc, top.self())));
  }
  const Fields requests = OPENLOOP_TRY(Fields::read_named(doc, *f, "requests (name: request)"));
  if (requests.entries().empty()) {
    return usage_error(fmt::format("{}: no requests; name at least one", yaml::where(doc, *f)));
  }
  auto grpc = std::make_shared<GrpcPlanText>();
  if (defaults.grpc) grpc->schema = *defaults.grpc;
  for (const auto& [name, field] : requests.entries()) {
    OPENLOOP_TRY_VOID(check_name(doc, field, name, "request"));
    RequestText spec;
    if (yaml::is_grpc_call(field)) {
      GrpcCallText& call = grpc->calls.emplace_back();
      call.request = plan.requests.size();
      spec = OPENLOOP_TRY(read_call(doc, field, name, defaults, plan, call));
    } else {
      spec = OPENLOOP_TRY(read_request(doc, field, name, plan.defaults.success));
    }
    merge_default_headers(spec, default_headers);
    plan.requests.push_back(OPENLOOP_TRY(
        RequestTemplate::compile(spec, plan.target, plan.variables, base_dir, plan.requests.size())));
  }
  if (!grpc->calls.empty()) {
    plan.grpc = std::move(grpc);
  } else if (defaults.grpc) {
    return usage_error(fmt::format(
        "{}: no request is a gRPC call (a request with call: package.Service/Method)", defaults.grpc->where));
  }
  return {};
}

Result<void> read_scenarios(const Doc& doc, const Fields& top, const std::filesystem::path& base_dir,
                            WorkloadPlan& plan) {
  const Field* f = top.find("scenarios");
  if (f == nullptr) {
    return usage_error(
        fmt::format("{}: no scenarios; give at least one, e.g. scenarios: {{browse: {{model: open, "
                    "rate: 100/s, duration: 1m, request: get_item}}}}",
                    yaml::where(doc, top.self())));
  }
  const Fields scenarios = OPENLOOP_TRY(Fields::read_named(doc, *f, "scenarios (name: scenario)"));
  if (scenarios.entries().empty()) {
    return usage_error(fmt::format("{}: no scenarios; give at least one", yaml::where(doc, *f)));
  }
  for (const auto& [name, field] : scenarios.entries()) {
    OPENLOOP_TRY_VOID(check_name(doc, field, name, "scenario"));
    plan.scenarios.push_back(
        OPENLOOP_TRY(yaml::read_scenario(doc, field, name, plan.scenarios.size(), plan, base_dir)));
  }
  return {};
}

// True when `scenarios` is a non-empty mapping whose every scenario's `arrival` is a mapping (a replay arrival,
// as written; read_scenario checks the rest).
bool every_scenario_replays(const Fields& top) {
  const Field* f = top.find("scenarios");
  if (f == nullptr || !f->node.IsMap() || f->node.size() == 0) return false;
  for (const auto& entry : f->node) {
    const YAML::Node& scenario = entry.second;
    if (!scenario.IsMap()) return false;
    // A missing key's node is invalid: only IsDefined() may be asked of it (yaml-cpp throws on the rest).
    const YAML::Node arrival = scenario["arrival"];
    if (!arrival.IsDefined() || !arrival.IsMap()) return false;
  }
  return true;
}

// `observe:` a list of --observe SPECs (checked when the run starts, as the flag's are).
Result<std::vector<std::string>> read_observe(const Doc& doc, const Field& field) {
  constexpr std::string_view k_accepted = "use a list of --observe SPECs, e.g. [host, \"process:nginx\"]";
  if (!field.node.IsSequence()) return doc.error(field.node, field.path, k_accepted);
  std::vector<std::string> specs;
  for (std::size_t i = 0; i < field.node.size(); ++i) {
    const YAML::Node item = field.node[i];
    const Field f{field.path + "[" + std::to_string(i) + "]", item, item.Mark(), item.Mark()};
    specs.push_back(OPENLOOP_TRY(yaml::scalar(doc, f, k_accepted)));
  }
  return specs;
}

Result<WorkloadPlan> read_plan(const Doc& doc, const YAML::Node& root, const std::filesystem::path& base_dir,
                               const PlanInputs& inputs) {
  if (!root.IsDefined() || root.IsNull()) {
    return usage_error(
        fmt::format("{}:1:1: the file is empty; a plan has target, requests and scenarios (see "
                    "docs/scenarios.md)",
                    doc.file()));
  }
  const Field self{"", root, root.Mark(), root.Mark()};
  const Fields top = OPENLOOP_TRY(Fields::read(
      doc, self, {"target", "seed", "defaults", "variables", "requests", "setup", "teardown", "scenarios", "observe"},
      "a plan file"));
  WorkloadPlan plan;
  plan.source = doc.file();
  OPENLOOP_TRY_VOID(read_target(doc, top, inputs.target, plan));
  if (const Field* s = top.find("seed")) plan.seed = OPENLOOP_TRY(yaml::whole_number(doc, *s, 0, UINT64_MAX));
  if (const Field* o = top.find("observe")) plan.observe = OPENLOOP_TRY(read_observe(doc, *o));
  Defaults defaults;
  if (const Field* d = top.find("defaults")) defaults = OPENLOOP_TRY(read_defaults(doc, *d, base_dir));
  plan.defaults = defaults.plan;
  if (const Field* v = top.find("variables")) OPENLOOP_TRY_VOID(read_variables(doc, *v, base_dir, plan));
  // Names flow steps capture are variables too, declared before the requests that read them compile.
  OPENLOOP_TRY_VOID(yaml::declare_captures(doc, top, plan.variables));
  // So are the columns of the scenarios' data files: each session's row sets them.
  OPENLOOP_TRY_VOID(yaml::declare_data_columns(doc, top, base_dir, plan.variables));
  // A plan whose every scenario replays a trace needs no requests of its own: the trace gives them.
  if (top.has("requests") || !every_scenario_replays(top))
    OPENLOOP_TRY_VOID(read_requests(doc, top, defaults, base_dir, plan));
  // Setup and teardown before the scenarios: a scenario's steps may read what the setup captured.
  if (const Field* f = top.find("setup")) plan.setup = OPENLOOP_TRY(yaml::read_once_steps(doc, *f, plan));
  if (const Field* f = top.find("teardown")) plan.teardown = OPENLOOP_TRY(yaml::read_once_steps(doc, *f, plan));
  OPENLOOP_TRY_VOID(yaml::check_once_uses(plan));
  OPENLOOP_TRY_VOID(read_scenarios(doc, top, base_dir, plan));
  OPENLOOP_TRY_VOID(yaml::check_call_steps(plan));
  return plan;
}

}  // namespace

Result<PlanInputs> make_plan_inputs(const std::vector<std::string>& defines, const std::string& target) {
  PlanInputs inputs;
  for (const std::string& d : defines) inputs.variables.defines.push_back(OPENLOOP_TRY(parse_define(d, "-e")));
  if (!target.empty()) OPENLOOP_TRY_VOID(parse_target_override(target));
  inputs.target = target;
  return inputs;
}

Result<WorkloadPlan> load_plan_text(std::string_view text, const std::string& source,
                                    const std::filesystem::path& base_dir, const PlanInputs& inputs) {
  const Doc doc(source);
  // Substituted before YAML sees the text, so values may stand anywhere a value may (rates, durations,
  // the target) and an error points at the reference itself.
  const std::string substituted = OPENLOOP_TRY(substitute_variables(text, source, inputs.variables));
  try {
    return read_plan(doc, YAML::Load(substituted), base_dir, inputs);
  } catch (const YAML::Exception& e) {
    // yaml-cpp reports syntax errors (and anything unexpected) by exception; it stops here, at the boundary.
    return usage_error(fmt::format("{}: not valid YAML: {}; a plan file is YAML (see docs/scenarios.md)",
                                   doc.where(e.mark, ""), e.msg));
  }
}

Result<WorkloadPlan> load_plan_file(const std::string& path, const PlanInputs& inputs) {
  auto text = read_file(path);
  if (!text) return usage_error(text.error().message);
  const std::filesystem::path base_dir = std::filesystem::path(path).parent_path();
  return load_plan_text(*text, path, base_dir.empty() ? std::filesystem::path(".") : base_dir, inputs);
}

}  // namespace openloop::workload
