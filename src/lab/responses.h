// The lab's HTTP responses, built once per configuration so serving one is a memcpy.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lab/service_model.h"

namespace openloop::lab {

/// Every response the data plane sends.
enum class Reply : std::uint8_t {
  ok,                 ///< 200, --body-size bytes
  server_error,       ///< 500, injected error
  shed,               ///< 429, --shed-at
  unavailable,        ///< 503, --queue-limit reached
  expired,            ///< 504, deadline passed in the queue
  bad_request,        ///< 400, malformed request or unreadable deadline header
  request_timeout,    ///< 408, slow sender
  payload_too_large,  ///< 413
  headers_too_large,  ///< 431
  count_
};

/// Pre-rendered responses: for each Reply, a keep-alive and a "Connection: close" variant. Rebuilt when the
/// body size changes; between rebuilds get() returns views into stable storage.
class ResponseCatalog {
 public:
  explicit ResponseCatalog(std::size_t body_size = 0) { build(body_size); }
  /// Renders every response with a 200 body of `body_size` bytes.
  void build(std::size_t body_size);
  /// The full response; for HEAD requests (`head`) only its status line and headers.
  std::string_view get(Reply reply, bool close, bool head) const;
  std::size_t body_size() const { return m_body_size; }
  /// The status code of `reply` and its body alone (HTTP/2 sends them as :status and DATA).
  static int status(Reply reply);
  std::string_view body(Reply reply) const;

 private:
  struct Rendered {
    std::string bytes;
    std::size_t header_length = 0;
  };
  std::size_t m_body_size = 0;
  std::array<std::array<Rendered, 2>, static_cast<std::size_t>(Reply::count_)> m_rendered;
};

/// The response to a model outcome (the lab server's and the simulator's mapping; cancelled has none and
/// maps to 500).
Reply reply_for(Outcome outcome);

/// What the lab says of one answer in its Server-Timing header.
struct ServerTiming {
  Nanos queue_wait{0};
  Nanos service{0};
  CacheLookup cache = CacheLookup::not_looked_up;
};

/// Writes the Server-Timing field value `queue;dur=X, app;dur=Y` (milliseconds, µs resolution), with
/// `, cache;desc=off|hit|miss` when the cache was consulted or there is none, into `out` (NUL-terminated).
/// Returns the length written, or -1 when it does not fit.
int format_server_timing(char* out, std::size_t size, const ServerTiming& timing);

/// Appends `response` to `out` with a `Server-Timing:` line (format_server_timing) added as its last header line
/// (the lab server's HTTP/1.1 answers). No allocation once `out` has grown to its working size.
void append_with_server_timing(std::string& out, std::string_view response, const ServerTiming& timing);

/// Renders one response (control plane; allocates).
/// With `set_cookie`, a `Set-Cookie: VALUE` header line too.
std::string render_response(int status, std::string_view content_type, std::string_view body, bool close,
                            std::string_view set_cookie = {});

}  // namespace openloop::lab
