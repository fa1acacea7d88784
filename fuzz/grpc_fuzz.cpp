// Fuzz target: gRPC responses as a hostile server sends them. The HTTP/2 client codec
// (src/engine/http2_codec) carrying gRPC calls (content-type application/grpc) fed arbitrary server bytes in
// pieces, as http2_client_fuzz does: the length-prefixed messages, the trailers and Trailers-Only answers,
// the 4 MiB limit; then the same bytes as a gRPC message body read by server reflection's client
// (grpc::ReflectionFiles::add_response) and by the lab's gRPC service (lab_call_key, answer_reflection).
// Every started call gets at most one report; nothing crashes, hangs or leaks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <string>

#include "engine/exchange.h"
#include "engine/http2_codec.h"
#include "http2_client_harness.h"
#include "grpc/reflection.h"
#include "lab/grpc_service.h"

namespace {

using namespace openloop;
using namespace openloop::engine;

using fuzz::Host;
using fuzz::k_exchanges;
using fuzz::Reports;

const http::HeaderView k_headers[] = {{"content-type", "application/grpc"}, {"te", "trailers"}};
// CallRequest {key: {id: "k"}} framed: what a call sends.
constexpr std::string_view k_message{"\0\0\0\0\5\x0a\x03\x0a\x01k", 10};

}  // namespace

// Input: the first byte picks the piece sizes and the client's moves; the rest is what the server sends.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t moves = data[0];
  ++data;
  --size;
  Host host;
  Reports reports;
  Http2Settings settings;
  settings.max_streams = 4;
  settings.capture_retry_after = (moves & 1) != 0;
  settings.capture_server_timing = (moves & 2) != 0;
  Http2Codec codec(host, reports, settings);
  http::RequestParts parts;
  parts.method = "POST";
  parts.target = "/openloop.test.v1.Bench/Call";
  parts.authority = "127.0.0.1:8080";
  parts.headers = k_headers;
  parts.body = k_message;
  Exchange x[k_exchanges];
  reports.base = x;
  for (auto& e : x) e.parts = &parts;
  codec.reset();

  std::size_t next = 0;
  const std::size_t piece = 1 + (moves >> 4) * 7;  // 1 .. 106 bytes a read
  for (std::size_t at = 0, round = 0; at < size && round < 4096; ++round) {
    // The client's side: write what the codec has, start streams while it has slots, cancel one at times.
    codec.wrote(codec.output().size());
    while (codec.can_start() && next < k_exchanges) {
      reports.live[next] = true;
      codec.start(x[next++]);
    }
    if ((moves & 8) != 0 && round % 3 == 2) {
      for (std::size_t i = 0; i < next; ++i) {
        if (reports.live[i]) {
          reports.live[i] = false;  // cancelled: nothing may be reported for it from now on
          codec.cancel(x[i]);
          break;
        }
      }
    }
    const std::size_t n = std::min(piece, size - at);
    const Codec::Feed feed = codec.on_data(reinterpret_cast<const char*>(data + at), n);
    at += n;
    if (feed == Codec::Feed::failed) break;
  }
  // The connection closes: what is still started is detached, each once.
  for (Exchange* e = codec.detach_all(); e != nullptr; e = e->carrier_next) reports.report(*e);

  // The same bytes as one message body, read by each side's message parsers.
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  grpc::ReflectionFiles files("p.Svc");
  (void)files.first_request();
  std::string more;
  (void)files.add_response(body, more);
  (void)lab::lab_call_key(body);
  std::string in(body), out;
  (void)lab::answer_reflection(in, out);
  return 0;
}
