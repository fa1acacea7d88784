// Reading a plan file's gRPC calls as plain data (workload/grpc_yaml.h).
#include "workload/grpc_yaml.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/grpc_checks.h"

namespace openloop::workload::yaml {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// One text or a list of texts: `proto: a.proto` or `proto: [a.proto, b.proto]`.
Result<std::vector<std::string>> one_or_list(const Doc& doc, const Field& f, std::string_view accepted) {
  if (!f.node.IsSequence()) return std::vector<std::string>{OPENLOOP_TRY(scalar(doc, f, accepted))};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < f.node.size(); ++i) {
    const YAML::Node item = f.node[i];
    const Field each{f.path + "[" + std::to_string(i) + "]", item, item.Mark(), item.Mark()};
    out.push_back(OPENLOOP_TRY(scalar(doc, each, accepted)));
  }
  return out;
}

std::string beside(const std::filesystem::path& base_dir, const std::string& path) {
  const std::filesystem::path p(path);
  return p.is_absolute() ? path : (base_dir / p).lexically_normal().string();
}

// A YAML value as JSON: a quoted scalar is a string, a plain one a number, true, false or null when it reads
// as one (as YAML's core schema reads it), else a string.
nlohmann::json to_json(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& entry : node) out[entry.first.Scalar()] = to_json(entry.second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(to_json(item));
    return out;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted
  if (text == "true" || text == "false") return text == "true";
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  if (auto number = nlohmann::json::parse(text, nullptr, false); number.is_number()) return number;
  return text;
}

// package.Service/Method (or ghz's package.Service.Method) → /package.Service/Method.
Result<std::string> call_path(const Doc& doc, const Field& f, const std::string& call) {
  const std::size_t slash = call.find('/');
  const std::size_t cut = slash != std::string::npos ? slash : call.rfind('.');
  const std::string service = cut == std::string::npos ? "" : call.substr(0, cut);
  const std::string method = cut == std::string::npos ? "" : call.substr(cut + 1);
  const auto is_name = [](std::string_view s, bool dots) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [dots](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || (dots && c == '.');
    });
  };
  if (!is_name(service, true) || !is_name(method, false)) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a method; write package.Service/Method (or package.Service.Method)",
                    where(doc, f), call));
  }
  return "/" + service + "/" + method;
}

// One metadata entry: refused when gRPC reserves its name or it is binary (-bin) and its value is not base64.
Result<void> check_metadata(const std::string& name, const TemplateText& value, std::string_view whose) {
  const std::string key = lower(name);
  if (is_reserved_grpc_metadata(key)) {
    return usage_error(
        fmt::format("{}: {} is reserved by gRPC{} (content-type, te and grpc-* are set by openloop; "
                    "grpc-timeout comes from the timeout)",
                    value.where, name, whose));
  }
  // A templated value is drawn per call: only a constant one can be checked here.
  if (key.size() > 4 && key.ends_with("-bin") && value.text.find("{{") == std::string::npos &&
      !is_base64(value.text)) {
    return usage_error(fmt::format(
        "{}: {} is binary metadata (a key ending in -bin){}, whose value is base64 (A-Z a-z 0-9 + /, padded "
        "with = or not); \"{}\" is not",
        value.where, name, whose, value.text));
  }
  return {};
}

}  // namespace

bool is_grpc_call(const Field& field) {
  if (!field.node.IsMap()) return false;
  const YAML::Node& node = field.node;
  return node["call"].IsDefined();
}

Result<GrpcSchemaText> read_grpc_schema(const Doc& doc, const Field& field,
                                        const std::filesystem::path& base_dir) {
  const Fields fields =
      OPENLOOP_TRY(Fields::read(doc, field, {"proto", "import_paths", "protoset"}, "a gRPC schema"));
  GrpcSchemaText s;
  s.where = where(doc, field);
  if (const Field* p = fields.find("proto")) {
    for (const auto& file : OPENLOOP_TRY(one_or_list(doc, *p, "give a .proto file or a list of them")))
      s.proto.push_back(beside(base_dir, file));
  }
  if (const Field* i = fields.find("import_paths")) {
    if (s.proto.empty())
      return usage_error(
          fmt::format("{}: import_paths apply to proto files; give proto: FILE", where(doc, *i)));
    for (const auto& dir : OPENLOOP_TRY(one_or_list(doc, *i, "give a folder or a list of folders")))
      s.import_paths.push_back(beside(base_dir, dir));
  }
  if (const Field* d = fields.find("protoset")) {
    if (!s.proto.empty())
      return usage_error(fmt::format("{}: give one schema, proto or protoset, not both", where(doc, *d)));
    s.protoset = beside(base_dir, OPENLOOP_TRY(scalar(doc, *d, "give a FileDescriptorSet file (protoc -o)")));
  }
  return s;
}

Result<std::uint32_t> read_grpc_success(const Doc& doc, const Field& field) {
  const auto names =
      OPENLOOP_TRY(one_or_list(doc, field, "give gRPC status names or codes, e.g. [OK, NOT_FOUND]"));
  std::string joined;
  for (const auto& n : names) joined.append(joined.empty() ? "" : ",").append(n);
  return parse_grpc_status_set(joined, where(doc, field));
}

Result<RequestText> read_grpc_call(const Doc& doc, const Field& field, const std::string& name,
                                   std::uint32_t success, GrpcCallText& call) {
  const Fields fields =
      OPENLOOP_TRY(Fields::read(doc, field, {"call", "message", "metadata", "grpc_success"}, "a gRPC call"));
  const Field& c = *fields.find("call");
  call.call = OPENLOOP_TRY(scalar(doc, c, "use package.Service/Method"));
  call.where = where(doc, field);
  call.success = success;
  RequestText spec;
  spec.name = name;
  spec.method = {"POST", where(doc, c)};
  spec.path = {OPENLOOP_TRY(call_path(doc, c, call.call)), where(doc, c)};
  call.message = "{}";
  if (const Field* m = fields.find("message")) {
    if (m->node.IsSequence()) {
      return usage_error(
          fmt::format("{}: one message per request; for several, name a request for each and "
                      "mix them",
                      where(doc, *m)));
    }
    call.message = m->node.IsMap() ? to_json(m->node).dump()
                                   : OPENLOOP_TRY(scalar(doc, *m, "a message is a mapping or JSON text"));
    spec.body = {call.message, where(doc, *m)};
  } else {
    spec.body = {call.message, where(doc, c)};
  }
  if (const Field* md = fields.find("metadata")) {
    const Fields entries = OPENLOOP_TRY(Fields::read_named(doc, *md, "metadata (name: value lines)"));
    for (const auto& [key, value] : entries.entries()) {
      const std::string text = OPENLOOP_TRY(scalar(doc, value, "a metadata value is one line of text"));
      TemplateText t{text, where(doc, value)};
      OPENLOOP_TRY_VOID(check_metadata(key, t, ""));
      spec.headers.emplace_back(key, std::move(t));
    }
  }
  spec.headers.emplace_back("content-type", TemplateText{"application/grpc", where(doc, c)});
  spec.headers.emplace_back("te", TemplateText{"trailers", where(doc, c)});
  if (const Field* s = fields.find("grpc_success")) call.success = OPENLOOP_TRY(read_grpc_success(doc, *s));
  return spec;
}

Result<void> check_default_metadata(const std::string& name, const TemplateText& value,
                                    const GrpcCallText& call) {
  return check_metadata(
      name, value,
      fmt::format(" (defaults.headers go with every request, and {} is a gRPC call)", call.where));
}

Result<void> check_call_steps(const WorkloadPlan& plan) {
  if (!plan.grpc) return {};
  for (const auto* steps : {&plan.setup, &plan.teardown}) {
    for (const Step& step : *steps) {
      if (plan.grpc->find(step.request) != nullptr) {
        return usage_error(
            fmt::format("{}: request {} is a gRPC call; setup and teardown steps send HTTP "
                        "requests only",
                        step.where, plan.requests[step.request].name()));
      }
    }
  }
  for (const ScenarioPlan& s : plan.scenarios) {
    for (const Step& step : s.steps) {
      if (!step.flow.empty() && plan.grpc->find(step.request) != nullptr) {
        return usage_error(
            fmt::format("{}: request {} is a gRPC call, whose response is protobuf: captures and "
                        "checks apply to HTTP requests only",
                        step.where, plan.requests[step.request].name()));
      }
    }
  }
  return {};
}

}  // namespace openloop::workload::yaml
