// A templated gRPC message (--data with {{...}}) as the engine's BodyEncoder: rendered per call, then
// encoded.
#pragma once

#include <memory>
#include <string_view>

namespace google::protobuf {
class MethodDescriptor;
}  // namespace google::protobuf

namespace openloop::engine {
class BodyEncoder;
}  // namespace openloop::engine

namespace openloop::grpc {
class Schema;
}  // namespace openloop::grpc

namespace openloop::cli {

/// The encoder of `method`'s request message for the JSON template `json_template` (grpc::TemplatedEncoder:
/// the template compiled here, the drawn values encoded per call, or libprotobuf's JSON parser per call for a
/// template the compiled path does not cover). Keeps `schema`, which owns `method`'s descriptors. The
/// template's shape is the caller's to check first (each {{...}} as 0 through grpc::MessageEncoder).
std::shared_ptr<const engine::BodyEncoder> make_templated_encoder(
    std::shared_ptr<const grpc::Schema> schema, const google::protobuf::MethodDescriptor& method,
    std::string_view json_template);

}  // namespace openloop::cli
