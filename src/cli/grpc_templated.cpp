// A templated gRPC message as the engine's BodyEncoder.
#include "cli/grpc_templated.h"

#include <string>
#include <utility>

#include "engine/run_plan.h"
#include "grpc/schema.h"
#include "grpc/templated_encoder.h"

namespace openloop::cli {

namespace {

// Called on the worker threads, per call; holds the schema its encoder's descriptors belong to.
class TemplatedMessage final : public engine::BodyEncoder {
 public:
  TemplatedMessage(std::shared_ptr<const grpc::Schema> schema,
                   const google::protobuf::MethodDescriptor& method, std::string_view json_template)
      : m_schema(std::move(schema)), m_encoder(method, json_template) {}
  bool encode(std::string_view rendered, std::string& out) const override {
    return m_encoder.frame_into(rendered, out);
  }

 private:
  std::shared_ptr<const grpc::Schema> m_schema;  // owns the method's descriptors
  grpc::TemplatedEncoder m_encoder;
};

}  // namespace

std::shared_ptr<const engine::BodyEncoder> make_templated_encoder(
    std::shared_ptr<const grpc::Schema> schema, const google::protobuf::MethodDescriptor& method,
    std::string_view json_template) {
  return std::make_shared<TemplatedMessage>(std::move(schema), method, json_template);
}

}  // namespace openloop::cli
