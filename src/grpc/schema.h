// A gRPC schema loaded before the run: .proto files parsed by libprotobuf's importer (no protoc at run time)
// or a FileDescriptorSet (`protoc -o`), and the unary method a --call names in it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace google::protobuf {
class DescriptorPool;
class MethodDescriptor;
}  // namespace google::protobuf

namespace openloop::grpc {

/// The message types and services of one schema. Immutable once loaded; its descriptors live as long as it
/// does.
class Schema {
 public:
  /// Parses each --proto FILE, its imports found under the --import-path DIRs (in order), then the FILE's own
  /// directory. A file that does not parse, or an import found nowhere, is a usage error (exit 2) quoting the
  /// parser's file:line:column messages and naming --import-path.
  static Result<std::unique_ptr<Schema>> from_protos(const std::vector<std::string>& protos,
                                                     const std::vector<std::string>& import_paths);
  /// Reads a FileDescriptorSet (binary, as `protoc --include_imports -o FILE` writes it). An unreadable file,
  /// one that is not a descriptor set, or a set whose files do not resolve (an import left out) is a usage
  /// error naming --protoset FILE.
  static Result<std::unique_ptr<Schema>> from_protoset(const std::string& path);
  /// A serialized FileDescriptorSet from elsewhere (server reflection): errors as from_protoset's, naming
  /// `origin` and ending with `hint` (what to do about it).
  static Result<std::unique_ptr<Schema>> from_descriptor_set(std::string_view bytes, std::string_view origin,
                                                             std::string_view hint);

  ~Schema();
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  /// The unary method `call` names: `package.Service/Method`, or ghz's `package.Service.Method`. An unknown
  /// service lists the services there are; an unknown method lists its service's methods; a client-, server-
  /// or bidirectional-streaming method is refused (unary calls only). All usage errors naming --call.
  Result<const google::protobuf::MethodDescriptor*> find_method(std::string_view call) const;
  /// The full names of every service in the schema, sorted.
  std::vector<std::string> services() const;
  const google::protobuf::DescriptorPool& pool() const;

  struct State;

 private:
  explicit Schema(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace openloop::grpc
