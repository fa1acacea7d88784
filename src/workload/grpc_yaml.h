// Reading a plan file's gRPC calls (`call:` requests, `defaults.grpc`, `grpc_success:`) as plain data:
// internal to the scenario-file loader. The schema and the messages' encoding are cli's (cli/grpc_plan.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "workload/grpc_call.h"
#include "workload/request_template.h"
#include "workload/scenario.h"
#include "workload/yaml_fields.h"

namespace openloop::workload::yaml {

/// True when the request at `field` is a gRPC call: a mapping with a `call:` key.
bool is_grpc_call(const Field& field);

/// `defaults.grpc`: {proto: FILE or [FILES], import_paths: [DIRS], protoset: FILE}, relative paths made
/// `base_dir`'s (the plan file's folder). proto and protoset together, or import_paths without proto, are
/// refused; neither proto nor protoset: the server's reflection.
Result<GrpcSchemaText> read_grpc_schema(const Doc& doc, const Field& field,
                                        const std::filesystem::path& base_dir);

/// `grpc_success:` "OK, NOT_FOUND" or [OK, NOT_FOUND] (names or codes): bit c set = status c is a success.
Result<std::uint32_t> read_grpc_success(const Doc& doc, const Field& field);

/// Reads the call at `field` ({call, message, metadata, grpc_success}; `success` is the plan's default set)
/// into `call` (its `request` left for the caller) and returns the HTTP/2 request that carries it: POST
/// /package.Service/Method, the metadata then content-type: application/grpc and te: trailers as headers, the
/// message's JSON as the body. A message written as a YAML mapping becomes JSON (a quoted value a string, a
/// plain one a number, true, false or null when it reads as one); a JSON string is taken as written. Refused:
/// a call that is not package.Service/Method (or .Method), a list as the message, metadata gRPC reserves
/// (content-type, te, grpc-*), a -bin value that is not base64.
Result<RequestText> read_grpc_call(const Doc& doc, const Field& field, const std::string& name,
                                   std::uint32_t success, GrpcCallText& call);

/// A plan's default header merged into a call (`defaults.headers` apply to calls as metadata): refused when
/// gRPC reserves its name or it is a -bin value that is not base64, naming the header and the call.
Result<void> check_default_metadata(const std::string& name, const TemplateText& value,
                                    const GrpcCallText& call);

/// Refuses a `setup:` or `teardown:` step that is a gRPC call (those steps send HTTP requests only), and a
/// scenario's step on a call with captures or checks (its response is protobuf). Call once the scenarios are
/// read.
Result<void> check_call_steps(const WorkloadPlan& plan);

}  // namespace openloop::workload::yaml
