// Server reflection: the grpc module's messages over the engine's blocking HTTP/2 stream.
#include "cli/grpc_reflection.h"

#include <fmt/format.h>

#include "core/grpc_status.h"
#include "core/units.h"
#include "engine/grpc_stream.h"
#include "grpc/reflection.h"
#include "net/url.h"

namespace openloop::cli {

namespace {

constexpr int k_unimplemented = 12;

// Each answer's imports asked for in turn; the stream half-closed once every file is known.
class Peer final : public engine::GrpcStreamPeer {
 public:
  explicit Peer(grpc::ReflectionFiles& files) : m_files(files) {}
  Result<void> on_message(std::string_view message, std::string& more, bool& end) override {
    OPENLOOP_TRY_VOID(m_files.add_response(message, more));
    end = m_files.complete();
    return {};
  }

 private:
  grpc::ReflectionFiles& m_files;
};

// The service a --call names: before the '/', or before the last '.' (ghz's form).
std::string service_of(std::string_view call) {
  std::size_t cut = call.rfind('/');
  if (cut == std::string_view::npos) cut = call.rfind('.');
  return std::string(call.substr(0, cut == std::string_view::npos ? call.size() : cut));
}

}  // namespace

Result<std::unique_ptr<grpc::Schema>> schema_from_reflection(const RunOptions& o, std::string_view base,
                                                             std::string_view call) {
  const auto pass = [&](std::string why) {
    return usage_error(fmt::format(
        "{}: no schema from server reflection: {}; pass --proto FILE or --protoset FILE", o.url, why));
  };
  const net::Url url = OPENLOOP_TRY(net::parse_url(base, "a gRPC target"));
  engine::GrpcStreamTarget target{url.host, url.port, url.tls, o.insecure, o.cacert, {}};
  target.timeout = OPENLOOP_TRY(parse_duration(o.timeout, "--timeout"));
  if (target.timeout.count() <= 0) target.timeout = std::chrono::seconds(5);
  for (const std::string_view path : {grpc::k_reflection_v1, grpc::k_reflection_v1alpha}) {
    grpc::ReflectionFiles files(service_of(call));
    Peer peer(files);
    auto end = engine::grpc_stream_exchange(target, path, files.first_request(), false, peer);
    if (!end) return pass(end.error().message);
    if (end->http_status != 200)
      return pass(fmt::format("{} answered HTTP status {}, not 200", path, end->http_status));
    if (end->grpc_status == k_unimplemented && path == grpc::k_reflection_v1) continue;
    if (end->grpc_status != 0) {
      const std::string status = end->grpc_status >= 0    ? std::string(grpc_status_name(end->grpc_status))
                                 : end->grpc_status == -1 ? std::string("no grpc-status")
                                                          : std::string("a grpc-status that is not a code");
      return pass(fmt::format("{} answered {}{}{}", path, status, end->grpc_message.empty() ? "" : ": ",
                              end->grpc_message));
    }
    if (!files.complete())
      return pass(fmt::format("{} ended the stream before answering every request", path));
    return grpc::Schema::from_descriptor_set(files.descriptor_set(),
                                             fmt::format("{}: the files from server reflection", o.url),
                                             "pass --proto FILE or --protoset FILE");
  }
  return pass("neither reflection version answered");  // not reached: v1alpha's answer returns above
}

}  // namespace openloop::cli
