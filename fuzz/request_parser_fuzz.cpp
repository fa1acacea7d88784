// Fuzz target: the lab's HTTP/1.1 request parser (src/http/request_parser) fed client bytes in pieces.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http/request_parser.h"

using openloop::http::RequestParser;

// Input: byte 0 sets the piece size; the rest is what a client sent on one connection (pipelined requests
// included). Small limits so the header and body limits are reached by short inputs.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t piece = data[0] == 0 ? size : data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

  RequestParser parser(openloop::http::RequestLimits{.max_header_bytes = 512, .max_body_bytes = 1024});
  parser.watch_header("X-Lab-Deadline");
  std::size_t at = 0;
  std::size_t end = 0;
  int requests = 0;
  while (at < input.size() && requests < 256) {
    if (end <= at) end = at + piece < input.size() ? at + piece : input.size();
    const auto fed = parser.feed(input.substr(at, end - at));
    at += fed.consumed;
    if (fed.status == RequestParser::Status::error) {
      volatile auto sink = parser.error_reason()[0];
      (void)sink;
      return 0;
    }
    if (fed.status == RequestParser::Status::request) {
      ++requests;
      volatile std::size_t sink = parser.method().size() + parser.target().size() + parser.path().size() +
                                  parser.watched_value().size() + parser.body().size() +
                                  (parser.is_head() ? 1 : 0) + (parser.keep_alive() ? 1 : 0);
      (void)sink;
      if (!parser.keep_alive()) return 0;
    }
  }
  return 0;
}
