// What a plan keeps of each response for a later step to read (the flows' captures), and who reads it: off
// unless a plan asks, and then fed into sinks made once per pooled exchange.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "http/response_sink.h"

namespace openloop::engine {

struct Exchange;

/// Reads what a capture kept of each response (flows extract their values here). Called on the worker's own
/// thread, so one reader shared by several workers must be thread-safe, or keep its state per worker.
class CaptureReader {
 public:
  /// The response that ended request `x` (its last attempt; one followed by a retry is not reported) arrived
  /// by the deadline; `sink` holds its parts. `worker`: the worker's index in its plan. Views into the sink
  /// are valid during the call only. Must not allocate in steady state (the engine promises no allocation per
  /// request).
  virtual void on_response(unsigned worker, const Exchange& x, const http::ResponseSink& sink) = 0;

 protected:
  ~CaptureReader() = default;
};

/// What a plan keeps of each final response: its status always, the named headers (matched
/// case-insensitively, the first occurrence of each) each cut at `value_cap` bytes, the de-chunked body cut
/// at `body_cap` bytes (0: none). Each worker makes one http::ResponseSink per exchange it pools, when the
/// pool grows, so a request allocates nothing for it in steady state.
struct ResponseCapture {
  std::vector<std::string> headers;
  std::size_t value_cap = 256;
  std::size_t body_cap = 0;
  /// Told of every captured response (not owned; must outlive the run); null: nobody reads them yet.
  CaptureReader* reader = nullptr;

  /// A sink with this capture's names and caps (allocates: once per pooled exchange).
  http::ResponseSink make_sink() const { return http::ResponseSink(headers, value_cap, body_cap); }
};

}  // namespace openloop::engine
