// A templated gRPC message as the engine's BodyEncoder.
#include "cli/grpc_templated.h"

#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "engine/run_plan.h"
#include "grpc/message.h"
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
  /// Empty when the template compiled (grpc::TemplatedEncoder::slow_reason).
  const std::string& slow_reason() const { return m_encoder.slow_reason(); }

 private:
  std::shared_ptr<const grpc::Schema> m_schema;  // owns the method's descriptors
  grpc::TemplatedEncoder m_encoder;
};

// The template with each {{...}} drawn as 0.
std::string drawn_as_zero(std::string_view json) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open = json.find("{{"); open != std::string_view::npos; open = json.find("{{", at)) {
    const std::size_t close = json.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(json.substr(at, open - at)).append("0");
    at = close + 2;
  }
  return out.append(json.substr(at));
}

}  // namespace

Result<std::shared_ptr<const engine::BodyEncoder>> make_templated_encoder(
    std::shared_ptr<const grpc::Schema> schema, const google::protobuf::MethodDescriptor& method,
    std::string_view json_template, std::string_view input) {
  auto message = std::make_shared<TemplatedMessage>(std::move(schema), method, json_template);
  // A compiled template was checked against libprotobuf with each value drawn as its field's type; one the
  // compiled path leaves to libprotobuf is checked with each value drawn as 0.
  if (!message->slow_reason().empty()) {
    (void)OPENLOOP_TRY(grpc::MessageEncoder(method).framed(drawn_as_zero(json_template),
                                                           fmt::format("{} (each {{{{...}}}} as 0)", input)));
  }
  return std::shared_ptr<const engine::BodyEncoder>(std::move(message));
}

}  // namespace openloop::cli
