// Fuzz target: the HTTP/2 client codec (src/engine/http2_codec, nghttp2's client session beneath it) fed
// arbitrary server bytes in pieces through a fake transport, with streams started, written, cancelled and
// detached between the pieces. Whatever the server sends, every started exchange gets at most one report, and
// the codec never crashes, hangs or leaks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/exchange.h"
#include "engine/http2_codec.h"
#include "http2_client_harness.h"

namespace {

using namespace openloop;
using namespace openloop::engine;

using fuzz::Host;
using fuzz::k_exchanges;
using fuzz::Reports;

const http::HeaderView k_headers[] = {{"Accept", "*/*"}, {"Connection", "keep-alive"}};

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
  parts.method = (moves & 4) != 0 ? "POST" : "GET";
  parts.target = "/fuzz";
  parts.authority = "127.0.0.1:8080";
  parts.headers = k_headers;
  if ((moves & 4) != 0) parts.body = std::string_view("a request body of a few bytes");
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
  return 0;
}
