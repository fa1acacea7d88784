// Replacing the scheme, host and port of a plan's URLs, keeping their paths.
#include "workload/target_override.h"

#include <fmt/format.h>

namespace openloop::workload {

Result<net::Url> parse_target_override(std::string_view text, std::string_view what) {
  net::Url url = OPENLOOP_TRY(net::parse_url(text, what));
  if (url.target != "/") {
    return usage_error(fmt::format(
        "{} '{}': give only scheme://host[:port], e.g. http://127.0.0.1:8080; the paths come from the plan "
        "(\"{}\" would be dropped)",
        what, text, url.target));
  }
  return url;
}

net::Url retarget(const net::Url& url, const net::Url& target) {
  net::Url out = target;
  out.target = url.target;
  return out;
}

std::string url_text(const net::Url& url) {
  return fmt::format("{}://{}{}", url.scheme, url.host_header, url.target == "/" ? "" : url.target);
}

}  // namespace openloop::workload
