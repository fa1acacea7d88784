// Fuzz target: target URLs (src/net/url).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "net/url.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto url = openloop::net::parse_url(text, "URL")) {
    // A parsed URL keeps its promises: a port, a target that starts the request line, a Host header.
    if (url->port == 0 || url->target.empty() || url->target[0] != '/' || url->host.empty() ||
        url->host_header.empty())
      __builtin_trap();
  }
  return 0;
}
