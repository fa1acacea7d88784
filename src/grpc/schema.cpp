// Loading a gRPC schema from .proto files or a descriptor set, and finding a method in it.
#include "grpc/schema.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <fmt/format.h>
#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/descriptor_database.h>

namespace openloop::grpc {

namespace gp = google::protobuf;

/// What a schema holds: either an importer (over .proto files) or a database (over a descriptor set), each
/// with the pool built from it, and the files loaded.
struct Schema::State {
  // --proto
  gp::compiler::DiskSourceTree tree;
  std::unique_ptr<gp::compiler::Importer> importer;
  // --protoset
  gp::SimpleDescriptorDatabase database;
  std::unique_ptr<gp::DescriptorPool> own_pool;
  const gp::DescriptorPool* pool = nullptr;
  std::vector<const gp::FileDescriptor*> files;  // every file loaded, imports included
};

namespace {

// The parser's messages, one line each: "file:line:column: message".
class CollectErrors final : public gp::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int column, const std::string& message) override {
    m_text += fmt::format("\n  {}:{}:{}: {}", file, line + 1, column + 1, message);
  }
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
};

void add_with_imports(const gp::FileDescriptor* f, std::vector<const gp::FileDescriptor*>& out) {
  if (std::find(out.begin(), out.end(), f) != out.end()) return;
  out.push_back(f);
  for (int i = 0; i < f->dependency_count(); ++i) add_with_imports(f->dependency(i), out);
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s.append(s.empty() ? "" : ", ").append(n);
  return s.empty() ? "(none)" : s;
}

}  // namespace

Schema::Schema(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Schema::~Schema() = default;

const gp::DescriptorPool& Schema::pool() const {
  return *m_state->pool;
}

Result<std::unique_ptr<Schema>> Schema::from_protos(const std::vector<std::string>& protos,
                                                    const std::vector<std::string>& import_paths) {
  auto state = std::make_unique<State>();
  for (const auto& dir : import_paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      return usage_error(fmt::format("--import-path {}: not a directory", dir));
    state->tree.MapPath("", dir);
  }
  for (const auto& proto : protos) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(proto, ec))
      return usage_error(fmt::format("--proto {}: no such file", proto));
    const std::string dir = std::filesystem::path(proto).parent_path().string();
    state->tree.MapPath("", dir.empty() ? "." : dir);
  }
  CollectErrors errors;
  state->importer = std::make_unique<gp::compiler::Importer>(&state->tree, &errors);
  for (const auto& proto : protos) {
    // The name the importer knows the file by: relative to the first directory mapped that holds it.
    std::string virtual_name, shadowing;
    if (state->tree.DiskFileToVirtualFile(proto, &virtual_name, &shadowing) !=
        gp::compiler::DiskSourceTree::SUCCESS) {
      virtual_name = std::filesystem::path(proto).filename().string();
    }
    const gp::FileDescriptor* f = state->importer->Import(virtual_name);
    if (f == nullptr) {
      return usage_error(fmt::format(
          "--proto {}: the file does not load:{}\n(imports are looked for under each --import-path DIR, then "
          "the file's own directory)",
          proto, errors.text()));
    }
    add_with_imports(f, state->files);
  }
  state->pool = state->importer->pool();
  return std::unique_ptr<Schema>(new Schema(std::move(state)));
}

Result<std::unique_ptr<Schema>> Schema::from_protoset(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return usage_error(fmt::format("--protoset {}: cannot open the file", path));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return from_descriptor_set(bytes, "--protoset " + path,
                             "write one with protoc --include_imports -o FILE x.proto");
}

Result<std::unique_ptr<Schema>> Schema::from_descriptor_set(std::string_view bytes, std::string_view origin,
                                                            std::string_view hint) {
  gp::FileDescriptorSet set;
  if (!set.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) || set.file_size() == 0)
    return usage_error(fmt::format("{}: not a FileDescriptorSet ({})", origin, hint));
  auto state = std::make_unique<State>();
  for (const auto& file : set.file()) {
    if (!state->database.Add(file))
      return usage_error(fmt::format("{}: the file {} appears twice or is malformed", origin, file.name()));
  }
  state->own_pool = std::make_unique<gp::DescriptorPool>(&state->database);
  state->pool = state->own_pool.get();
  for (const auto& file : set.file()) {
    const gp::FileDescriptor* f = state->pool->FindFileByName(file.name());
    if (f == nullptr)
      return usage_error(
          fmt::format("{}: {} does not resolve (an import missing? {})", origin, file.name(), hint));
    add_with_imports(f, state->files);
  }
  return std::unique_ptr<Schema>(new Schema(std::move(state)));
}

std::vector<std::string> Schema::services() const {
  std::set<std::string> names;
  for (const gp::FileDescriptor* f : m_state->files)
    for (int i = 0; i < f->service_count(); ++i) names.insert(f->service(i)->full_name());
  return {names.begin(), names.end()};
}

Result<const gp::MethodDescriptor*> Schema::find_method(std::string_view call) const {
  // package.Service/Method, or package.Service.Method (ghz): the method is after the last '/' or '.'.
  std::size_t cut = call.rfind('/');
  if (cut == std::string_view::npos) cut = call.rfind('.');
  if (cut == std::string_view::npos || cut == 0 || cut + 1 == call.size()) {
    return usage_error(
        fmt::format("--call {}: expected package.Service/Method (or package.Service.Method)", call));
  }
  const std::string service_name(call.substr(0, cut));
  const std::string method_name(call.substr(cut + 1));
  const gp::ServiceDescriptor* service = m_state->pool->FindServiceByName(service_name);
  if (service == nullptr) {
    return usage_error(fmt::format("--call {}: no service {} in the schema; its services: {}", call,
                                   service_name, joined(services())));
  }
  const gp::MethodDescriptor* method = service->FindMethodByName(method_name);
  if (method == nullptr) {
    std::vector<std::string> methods;
    for (int i = 0; i < service->method_count(); ++i) methods.push_back(service->method(i)->name());
    return usage_error(fmt::format("--call {}: service {} has no method {}; its methods: {}", call,
                                   service_name, method_name, joined(methods)));
  }
  if (method->client_streaming() || method->server_streaming()) {
    const char* kind = method->client_streaming() && method->server_streaming() ? "bidirectional-streaming"
                       : method->client_streaming()                             ? "client-streaming"
                                                                                : "server-streaming";
    return usage_error(fmt::format("--call {}: {} is a {} method; openloop calls unary methods only", call,
                                   method->full_name(), kind));
  }
  return method;
}

}  // namespace openloop::grpc
