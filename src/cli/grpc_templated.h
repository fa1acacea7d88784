// A templated gRPC message (--data with {{...}}) as the engine's BodyEncoder: rendered per call, then
// encoded.
#pragma once

#include <memory>
#include <string_view>

#include "core/error.h"

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
/// template's shape is checked here, before the run: a template the compiled path covers was encoded by
/// libprotobuf with each {{...}} drawn as a value of its field's type (so `"flag": {{choice(true, false)}}`
/// passes); any other with each {{...}} drawn as 0. A refusal (usage) names `input` ("--data", "message").
Result<std::shared_ptr<const engine::BodyEncoder>> make_templated_encoder(
    std::shared_ptr<const grpc::Schema> schema, const google::protobuf::MethodDescriptor& method,
    std::string_view json_template, std::string_view input);

}  // namespace openloop::cli
