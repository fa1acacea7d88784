// gRPC server reflection (grpc.reflection.v1 and v1alpha, the same messages): the requests that ask a server
// for the file defining a service and then for the files it imports, and its answers collected into a
// FileDescriptorSet. The conversation itself goes over the engine's HTTP/2 stream (engine/grpc_stream.h).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::grpc {

/// The reflection service's method paths, v1 first (v1alpha: servers from before 2023).
inline constexpr std::string_view k_reflection_v1 =
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
inline constexpr std::string_view k_reflection_v1alpha =
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

/// One reflection conversation: which files are known, which are asked for and not answered yet.
class ReflectionFiles {
 public:
  /// `symbol`: the service to find (package.Service).
  explicit ReflectionFiles(std::string symbol);

  /// The first request (file_containing_symbol), framed.
  std::string first_request();
  /// Reads one ServerReflectionResponse: each file it carries is kept, and a file_by_filename request
  /// (framed) is appended to `more` for each import neither known nor asked for. Errors (usage): the server's
  /// error_response (e.g. NOT_FOUND: it does not know the symbol), a message that is not a response.
  Result<void> add_response(std::string_view message, std::string& more);
  /// True once every request was answered (each answer's imports asked for in turn).
  bool complete() const { return m_asked == m_answered; }
  /// What was collected: a serialized FileDescriptorSet (every file once).
  const std::string& descriptor_set() const { return m_set; }

 private:
  void ask(int field, std::string_view name, std::string& out);

  std::string m_symbol;
  std::set<std::string, std::less<>> m_known;     // files received or asked for
  std::set<std::string, std::less<>> m_received;  // files received
  std::string m_set;
  std::size_t m_asked = 0, m_answered = 0;
};

}  // namespace openloop::grpc
