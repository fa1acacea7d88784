// A gRPC method's request message written from JSON (libprotobuf's JSON mapping) and framed for the wire.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"

namespace google::protobuf {
class MethodDescriptor;
class Message;
class DynamicMessageFactory;
}  // namespace google::protobuf

namespace openloop::grpc {

/// The request message of one method. Holds the method's descriptors (its schema must outlive it). framed()
/// may be called from several threads at once.
class MessageEncoder {
 public:
  explicit MessageEncoder(const google::protobuf::MethodDescriptor& method);
  ~MessageEncoder();
  MessageEncoder(const MessageEncoder&) = delete;
  MessageEncoder& operator=(const MessageEncoder&) = delete;

  /// The framed message for `json`. JSON that does not fit the method's input type (an unknown field, a value
  /// of the wrong type, not JSON at all) is a usage error naming `input` (e.g. "--data"), the message type
  /// and the field the JSON mapping stopped at.
  Result<std::string> framed(std::string_view json, std::string_view input) const;
  /// The same without a Result, for a message rendered per call (a templated --data): the framed message into
  /// `out` (its capacity reused; `scratch` holds the unframed one), or false with why not in `out`. Allocates
  /// the message and its fields per call (bench/grpc_message_bench measures it).
  bool frame_into(std::string_view json, std::string& out, std::string& scratch) const;
  /// The input type's full name ("helloworld.HelloRequest").
  const std::string& input_type() const;

 private:
  std::unique_ptr<google::protobuf::DynamicMessageFactory> m_factory;
  const google::protobuf::Message* m_prototype = nullptr;
  std::string m_input_type;
};

}  // namespace openloop::grpc
