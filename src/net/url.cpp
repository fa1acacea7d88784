// URL parsing for targets: strict about what can be sent, explicit about what was wrong.
#include "net/url.h"

#include <cctype>

#include <arpa/inet.h>
#include <fmt/format.h>

#include "core/redact.h"

namespace openloop::net {

namespace {

constexpr std::string_view k_accepted = "expected http://host[:port][/path][?query] or https://...";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_host_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_' || c == '~';
}

// Parses the digits after ':' in the authority; 1..65535.
Result<std::uint16_t> parse_port(std::string_view digits, std::string_view text, std::string_view what) {
  if (digits.empty())
    return usage_error(fmt::format("{} '{}': the port after ':' is empty; {}", what, text, k_accepted));
  unsigned long value = 0;
  for (char c : digits) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0 || value > 65535) {
      return usage_error(fmt::format("{} '{}': port '{}' is not a number in 1..65535", what, text, digits));
    }
    value = value * 10 + static_cast<unsigned long>(c - '0');
  }
  if (value == 0 || value > 65535) {
    return usage_error(fmt::format("{} '{}': port '{}' is not a number in 1..65535", what, text, digits));
  }
  return static_cast<std::uint16_t>(value);
}

struct HostPort {
  std::string host;
  bool ipv6 = false;
  std::uint16_t port = 0;  // 0 when not given
};

Result<HostPort> parse_authority(std::string_view authority, std::string_view text, std::string_view what) {
  if (authority.find('@') != std::string_view::npos) {
    return usage_error(
        fmt::format("{} '{}': user info ('user@') in the URL is not supported; send credentials with -H "
                    "'Authorization: ...'",
                    what, text));
  }
  HostPort out;
  std::string_view port_part;
  bool has_port = false;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) {
      return usage_error(fmt::format(
          "{} '{}': IPv6 literal has no closing ']'; write it as http://[::1]:8080/", what, text));
    }
    out.host = std::string(authority.substr(1, close - 1));
    out.ipv6 = true;
    in6_addr addr{};
    if (inet_pton(AF_INET6, out.host.c_str(), &addr) != 1) {
      return usage_error(fmt::format("{} '{}': '{}' is not a valid IPv6 address (zone ids are not supported)",
                                     what, text, out.host));
    }
    const auto rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return usage_error(
            fmt::format("{} '{}': unexpected '{}' after the IPv6 literal; {}", what, text, rest, k_accepted));
      }
      port_part = rest.substr(1);
      has_port = true;
    }
  } else {
    const auto colon = authority.find(':');
    if (colon != std::string_view::npos && authority.find(':', colon + 1) != std::string_view::npos) {
      return usage_error(
          fmt::format("{} '{}': an IPv6 address must be in brackets, e.g. http://[::1]:8080/", what, text));
    }
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_part = authority.substr(colon + 1);
      has_port = true;
    }
    for (char c : out.host) {
      if (!is_host_char(c)) {
        return usage_error(
            fmt::format("{} '{}': invalid character '{}' in host '{}'; a host is a name, an IPv4 "
                        "address or an [IPv6] address",
                        what, text, c, out.host));
      }
    }
  }
  if (out.host.empty())
    return usage_error(fmt::format("{} '{}': the host is empty; {}", what, text, k_accepted));
  if (has_port) out.port = OPENLOOP_TRY(parse_port(port_part, text, what));
  return out;
}

}  // namespace

Result<Url> parse_url(std::string_view text, std::string_view what) {
  if (text.empty()) return usage_error(fmt::format("{} is empty; {}", what, k_accepted));
  const std::string shown = redact_url(text);  // errors echo the URL, never its credentials
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c <= 0x20 || c == 0x7f) {
      return usage_error(fmt::format(
          "{} '{}': space or control character at position {}; percent-encode it (%20)", what, shown, i + 1));
    }
  }
  const auto sep = text.find("://");
  if (sep == std::string_view::npos) {
    return usage_error(fmt::format("{} '{}': missing scheme; {}", what, shown, k_accepted));
  }
  Url url;
  url.scheme = lower(text.substr(0, sep));
  if (url.scheme != "http" && url.scheme != "https") {
    return usage_error(
        fmt::format("{} '{}': unsupported scheme '{}'; {}", what, shown, text.substr(0, sep), k_accepted));
  }
  url.tls = url.scheme == "https";
  const std::uint16_t default_port = url.tls ? 443 : 80;

  auto rest = text.substr(sep + 3);
  const auto authority_end = rest.find_first_of("/?#");
  const auto authority = rest.substr(0, authority_end);
  auto target = authority_end == std::string_view::npos ? std::string_view{} : rest.substr(authority_end);
  if (const auto hash = target.find('#'); hash != std::string_view::npos) target = target.substr(0, hash);

  auto hp = OPENLOOP_TRY(parse_authority(authority, shown, what));
  url.host = std::move(hp.host);
  url.port = hp.port != 0 ? hp.port : default_port;
  url.target = target.empty() || target.front() != '/' ? "/" + std::string(target) : std::string(target);
  url.host_header = hp.ipv6 ? "[" + url.host + "]" : url.host;
  if (url.port != default_port) url.host_header += fmt::format(":{}", url.port);
  return url;
}

}  // namespace openloop::net
