// --target URL: pointing a plan or a targets file at another host without editing it.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "net/url.h"

namespace openloop::workload {

/// Parses --target: http(s)://host[:port] with no path beyond "/", no query. Errors (usage) begin with `what`
/// and say that the path comes from the plan.
Result<net::Url> parse_target_override(std::string_view text, std::string_view what = "--target");

/// `url` with the scheme, host and port (and so TLS and the Host header) of `target`; its path and query kept.
net::Url retarget(const net::Url& url, const net::Url& target);

/// "scheme://host[:port]" + the URL's target unless it is "/": how a retargeted URL is shown.
std::string url_text(const net::Url& url);

}  // namespace openloop::workload
