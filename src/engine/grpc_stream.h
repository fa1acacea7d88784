// One blocking gRPC stream before the load (server reflection, docs/grpc.md): its own connection and nghttp2
// client session, request messages sent as the conversation needs them, every response message handed to the
// caller, all within one deadline. Never used on a hot path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/time.h"

namespace openloop::engine {

/// Where the stream goes and how long it may take as a whole.
struct GrpcStreamTarget {
  std::string host;
  std::uint16_t port = 0;
  bool tls = false;       ///< grpcs://: TLS with ALPN h2
  bool insecure = false;  ///< --insecure: no verification
  std::string ca_file;    ///< --cacert
  Nanos timeout{};        ///< the whole exchange, connect included
};

/// The caller's side of the conversation.
class GrpcStreamPeer {
 public:
  /// A response message (its 5-byte prefix stripped) arrived. Append the next request messages (framed) to
  /// `more`; set `end` to half-close the stream once they are sent. An error ends the exchange with it.
  virtual Result<void> on_message(std::string_view message, std::string& more, bool& end) = 0;

 protected:
  ~GrpcStreamPeer() = default;
};

/// How the stream ended: its HTTP status and grpc-status (−1: none) and grpc-message.
struct GrpcStreamEnd {
  int http_status = 0;
  int grpc_status = -1;
  std::string grpc_message;
};

/// Opens `path` (/package.Service/Method) on target as a gRPC stream, sends `first` (framed request messages;
/// `end_first` half-closes after them), then feeds each response message to `peer` until the server ends the
/// stream. Errors (runtime): no connection, a TLS or HTTP/2 failure, a malformed length prefix, or no end of
/// the stream by target.timeout (the message says which); a peer's error as it is.
Result<GrpcStreamEnd> grpc_stream_exchange(const GrpcStreamTarget& target, std::string_view path,
                                           std::string first, bool end_first, GrpcStreamPeer& peer);

}  // namespace openloop::engine
