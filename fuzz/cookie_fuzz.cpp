// Fuzz target: the cookie jar's parsers and rules (src/http/set_cookie, cookie_jar): each input line is a
// Set-Cookie header stored into one jar as if the response to "/a/b" on api.example.com carried it; then the
// jar's Cookie header for a few targets is built. Checks: the parsed parts are views into the line, nothing
// crashes, and the jar never holds more than its capacity.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/cookie_jar.h"
#include "http/set_cookie.h"

namespace {

bool inside(std::string_view part, std::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openloop::http;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  CookieJar jar(4);
  constexpr std::int64_t k_now = 1'780'000'000;
  for (int line = 0; line < 64 && !input.empty(); ++line) {
    const std::size_t nl = input.find('\n');
    const std::string_view header = input.substr(0, nl);
    input = nl == std::string_view::npos ? std::string_view() : input.substr(nl + 1);
    (void)parse_cookie_date(header);
    const auto cookie = parse_set_cookie(header);
    if (!cookie) continue;
    if (cookie->name.empty() || !inside(cookie->name, header) || !inside(cookie->value, header) ||
        !inside(cookie->domain, header) || !inside(cookie->path, header))
      __builtin_trap();
    (void)jar.store(*cookie, "api.example.com", "/a/b?q=/x", k_now);
    if (jar.size() > 4) __builtin_trap();
  }
  std::string out;
  for (const std::string_view target : {"/", "/a/b/c", "/a?x", ""}) {
    const std::size_t n = jar.header("api.example.com", target, false, k_now + 5, out);
    if (n > 4 || (n == 0) != out.empty()) __builtin_trap();
  }
  return 0;
}
