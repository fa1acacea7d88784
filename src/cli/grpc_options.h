// `openloop run grpc://host:port --call package.Service/Method`: the gRPC flags, and the call they describe
// turned into the HTTP/2 request the run sends (docs/grpc.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/run_options.h"
#include "core/error.h"

namespace CLI {
class App;
}

namespace openloop::engine {
struct RunPlan;
class BodyEncoder;
}  // namespace openloop::engine

namespace openloop::cli {

/// Raw gRPC flags.
struct GrpcOptions {
  std::string call;                       ///< --call package.Service/Method (or package.Service.Method)
  std::vector<std::string> proto;         ///< --proto FILE (repeatable)
  std::vector<std::string> import_paths;  ///< --import-path DIR (repeatable)
  std::string protoset;                   ///< --protoset FILE: a FileDescriptorSet
  std::string data;                       ///< --data JSON | @FILE: the request message (empty: {})
  std::string success = "OK";             ///< --grpc-success: the status names that are a success
};

/// Registers --call, --proto, --import-path, --protoset, --data and --grpc-success (help group "gRPC").
void add_grpc_options(CLI::App& sub, GrpcOptions& o);

/// The status codes that count as a success: bit c set = code c (0 OK ... 16 UNAUTHENTICATED).
struct GrpcSuccess {
  std::uint32_t mask = 1;
};

/// A gRPC call, prepared before the plan: the run's options rewritten as the HTTP/2 request that carries it.
struct GrpcCall {
  std::string target;   ///< the grpc:// or grpcs:// URL as given
  std::string call;     ///< package.Service/Method
  GrpcSuccess success;  ///< --grpc-success
  bool send_timeout = false;  ///< --timeout is sent as grpc-timeout, per attempt
  /// A templated --data: the options' body is the JSON template, rendered and encoded per call by this.
  std::shared_ptr<const engine::BodyEncoder> encoder;
  /// --data holding a JSON array of messages: each framed, sent in turn (the options' body is the first).
  std::vector<std::string> messages;
  RunOptions options;   ///< POST http(s)://host:port/package.Service/Method over HTTP/2, the framed message
};

/// Loads the schema, finds the method, encodes the message once and rewrites the options. Every refusal is a
/// usage error (exit 2) before anything is sent: a target with a path, no --call, both kinds of schema (with
/// neither, the schema comes from the server's reflection: cli/grpc_reflection.h), a bad schema or method
/// (grpc/schema.h), JSON that does not fit (a templated one with each {{...}} as 0), an unknown status name,
/// a reserved metadata key (content-type, te, grpc-*), and HTTP flags that do not apply (--body, -X,
/// --success, --protocol h1, --targets, --replay).
Result<GrpcCall> prepare_grpc_call(const RunOptions& o, const GrpcOptions& g);

/// A usage error when a gRPC flag is given without a grpc:// or grpcs:// target.
Result<void> check_no_grpc_flags(const GrpcOptions& g);

/// Marks the plan's requests as the call: its name, its success statuses, its deadline header, its encoder; a
/// JSON array of messages becomes one request per message, in turn ("package.Service/Method [2]"); the plan's
/// target reads as the grpc:// URL.
Result<void> apply_grpc_call(const GrpcCall& call, engine::RunPlan& plan);

/// The codes of a comma-separated list of status names or codes ("OK", "OK,NOT_FOUND,UNAVAILABLE", "0,5"),
/// any set; an unknown name is a usage error naming --grpc-success and the 17 names there are.
Result<GrpcSuccess> parse_grpc_success(std::string_view names);

}  // namespace openloop::cli
