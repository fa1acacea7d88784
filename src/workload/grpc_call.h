// A plan file's gRPC calls as plain data (docs/grpc.md, "In plan files"): which requests are calls, their
// method and message as written, and where the plan's schema comes from. workload reads and checks them as
// text; cli loads the schema, finds the methods and encodes the messages (cli/grpc_plan.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::workload {

/// Where a plan's calls find their schema (`defaults.grpc`). Neither proto nor protoset: the server's
/// reflection service, asked before the load.
struct GrpcSchemaText {
  std::vector<std::string> proto;  ///< `proto:` FILE or [FILES], relative paths made the plan's folder's
  std::vector<std::string> import_paths;  ///< `import_paths:` DIRs, the same way
  std::string protoset;                   ///< `protoset:` FILE, the same way
  std::string where;                      ///< "plan.yaml:4:3: defaults.grpc", or "" when not given
};

/// One request of `requests:` that is a gRPC call. Its template (WorkloadPlan::requests[request]) is the
/// HTTP/2 request that carries it: POST /package.Service/Method, the metadata and content-type/te as headers,
/// the message's JSON as the body (rendered per call when it holds {{templates}}, then encoded by cli).
struct GrpcCallText {
  std::size_t request = 0;    ///< index into WorkloadPlan::requests
  std::string call;           ///< as written: package.Service/Method or ghz's package.Service.Method
  std::string message;        ///< protobuf's JSON mapping ("{}" when not given), maybe with {{templates}}
  std::uint32_t success = 1;  ///< `grpc_success`: bit c set = status c is a success (default OK)
  std::string where;          ///< "plan.yaml:9:5: requests.lookup", the prefix of messages about the call
};

/// Every call of a plan and its schema.
struct GrpcPlanText {
  GrpcSchemaText schema;
  std::vector<GrpcCallText> calls;  ///< in the order of WorkloadPlan::requests

  /// The call that request `request` is, or null for a plain HTTP request.
  const GrpcCallText* find(std::size_t request) const {
    for (const GrpcCallText& c : calls)
      if (c.request == request) return &c;
    return nullptr;
  }
};

/// True for a grpc:// or grpcs:// URL (HTTP/2 by prior knowledge, or over TLS with ALPN h2).
inline bool is_grpc_url(std::string_view url) {
  return url.rfind("grpc://", 0) == 0 || url.rfind("grpcs://", 0) == 0;
}

}  // namespace openloop::workload
