// The lab's built-in gRPC service (`openloop lab --grpc`, proto/openloop/lab/v1/lab.proto): its messages and
// server reflection, encoded by hand (the lab links no protobuf), and how the model's replies read as gRPC
// statuses. The HTTP/2 connection (http2_connection.h) carries them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/time.h"
#include "lab/responses.h"

namespace openloop::lab {

/// The service's one method, and the reflection service's method (v1 and v1alpha).
inline constexpr std::string_view k_lab_call_path = "/openloop.lab.v1.Lab/Call";
inline constexpr std::string_view k_lab_service = "openloop.lab.v1.Lab";

/// True for application/grpc and its subtypes (application/grpc+proto).
bool is_grpc_content_type(std::string_view value);
/// True for the reflection method's path, v1 or v1alpha.
bool is_reflection_path(std::string_view path);

/// The key of a CallRequest when `body` is exactly one uncompressed length-prefixed message that parses; else
/// nullopt (a view into body).
std::optional<std::string_view> lab_call_key(std::string_view body);
/// Replaces `out` with one framed CallReply {key, payload}. No allocation once out has grown.
void write_lab_reply(std::string_view key, std::string_view payload, std::string& out);

/// Answers every whole framed ServerReflectionRequest at the front of `in` (removing it), appending each
/// answer (framed) to `out`: the lab's lab.proto for file_containing_symbol of its package's symbols or
/// file_by_filename "openloop/lab/v1/lab.proto", its service for list_services, else an error_response
/// NOT_FOUND. Returns false when `in` holds a malformed prefix or message.
bool answer_reflection(std::string& in, std::string& out);
/// lab.proto's FileDescriptorProto, serialized (what reflection sends).
std::string_view lab_proto_descriptor();

/// A grpc-timeout value (1 to 8 digits and a unit H, M, S, m, u, n) as a duration; nullopt for anything else.
std::optional<Nanos> parse_grpc_timeout(std::string_view text);

/// The gRPC status a model reply answers with: ok → OK, shed and a full queue → RESOURCE_EXHAUSTED, an
/// expired deadline → DEADLINE_EXCEEDED, an injected error → UNAVAILABLE, a bad request → INVALID_ARGUMENT, a
/// too-large message → RESOURCE_EXHAUSTED, anything else → INTERNAL.
int grpc_status_for(Reply reply);
/// Its grpc-message (percent-encoding not needed: plain ASCII without '%').
std::string_view grpc_message_for(Reply reply);

}  // namespace openloop::lab
