// JSON → protobuf for a method's request message, framed.
#include "grpc/message.h"

#include <fmt/format.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include "grpc/framing.h"

namespace openloop::grpc {

namespace gp = google::protobuf;

MessageEncoder::MessageEncoder(const gp::MethodDescriptor& method)
    : m_factory(std::make_unique<gp::DynamicMessageFactory>()),
      m_prototype(m_factory->GetPrototype(method.input_type())),
      m_input_type(method.input_type()->full_name()) {}

MessageEncoder::~MessageEncoder() = default;

const std::string& MessageEncoder::input_type() const {
  return m_input_type;
}

Result<std::string> MessageEncoder::framed(std::string_view json, std::string_view input) const {
  std::string out, scratch;
  if (!frame_into(json, out, scratch)) return usage_error(fmt::format("{}: {}", input, out));
  return out;
}

bool MessageEncoder::frame_into(std::string_view json, std::string& out, std::string& scratch) const {
  const std::unique_ptr<gp::Message> message(m_prototype->New());
  gp::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field is an error, not a silently empty message
  const auto status =
      gp::util::JsonStringToMessage(gp::StringPiece(json.data(), json.size()), message.get(), options);
  out.clear();
  if (!status.ok()) {
    out = fmt::format("the JSON does not fit {} (protobuf's JSON mapping): {}", m_input_type,
                      std::string(status.message()));
    return false;
  }
  scratch.clear();
  if (!message->SerializeToString(&scratch)) {
    out = fmt::format("the message {} does not serialize", m_input_type);
    return false;
  }
  append_framed(scratch, out);
  return true;
}

}  // namespace openloop::grpc
