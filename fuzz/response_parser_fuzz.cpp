// Fuzz target: the client's HTTP/1.1 response parser (src/http/response_parser) fed server bytes in pieces.
#include <cstddef>
#include <cstdint>

#include "http/response_parser.h"

using openloop::http::ResponseParser;

// Input: byte 0 holds the flags (HEAD request, Retry-After capture) and the piece size; the rest is what the
// server sent on one connection. Responses are parsed one after another as the engine does (reset after
// each complete one, finish() at EOF), so keep-alive sequences and trailing bytes are covered too.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t flags = data[0];
  const bool head = (flags & 1) != 0;
  const std::size_t piece = (flags >> 2) == 0 ? size : (flags >> 2);
  ++data;
  --size;

  ResponseParser parser;
  parser.capture_retry_after((flags & 2) != 0);
  parser.reset(head, true);
  const char* bytes = reinterpret_cast<const char*>(data);
  std::size_t at = 0;
  int responses = 0;
  while (at < size && responses < 64) {
    const std::size_t n = size - at < piece ? size - at : piece;
    const auto state = parser.feed(bytes + at, n);
    if (state == ResponseParser::State::error) return 0;
    if (state == ResponseParser::State::complete) {
      // Touch every accessor so the sanitizers see them read their state.
      volatile auto sink = parser.status() + static_cast<int>(parser.body_bytes()) +
                           static_cast<int>(parser.retry_after().size()) + (parser.keep_alive() ? 1 : 0);
      (void)sink;
      // The bytes after the end of the response start the next one, as on a keep-alive connection.
      at += n - parser.trailing_bytes();
      ++responses;
      if (!parser.keep_alive()) return 0;
      parser.reset(head, false);
      continue;
    }
    at += n;
  }
  (void)parser.finish();
  return 0;
}
