// The cookie jar: storing Set-Cookie values with RFC 6265's domain, path and expiry rules, and the Cookie
// header.
#include "http/cookie_jar.h"

#include <algorithm>
#include <cctype>

namespace openloop::http {
namespace {

bool same_lower(std::string_view lower, std::string_view any) {
  return lower.size() == any.size() &&
         std::equal(lower.begin(), lower.end(), any.begin(),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

void assign_lower(std::string& out, std::string_view in) {
  out.assign(in);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// An IPv4 literal (digits and dots) or an IPv6 one (has a ':'): domain cookies never match an address.
bool ip_literal(std::string_view host) {
  if (host.find(':') != std::string_view::npos) return true;
  return !host.empty() &&
         std::all_of(host.begin(), host.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); });
}

// Second-level registries common enough to meet in a load test (a subset of the Public Suffix List).
constexpr std::string_view k_second_level[] = {
    "co.uk",  "org.uk", "ac.uk",  "gov.uk", "ltd.uk", "plc.uk", "me.uk",  "net.uk", "com.au", "net.au",
    "org.au", "edu.au", "gov.au", "co.nz",  "org.nz", "net.nz", "co.jp",  "ne.jp",  "or.jp",  "ac.jp",
    "go.jp",  "com.br", "net.br", "org.br", "com.cn", "net.cn", "org.cn", "gov.cn", "co.in",  "net.in",
    "org.in", "co.kr",  "or.kr",  "co.za",  "org.za", "com.mx", "com.ar", "com.tr", "com.tw", "com.hk",
    "com.sg", "co.il",  "com.ua", "com.pl", "co.id",  "com.my", "com.ph", "com.vn", "com.sa", "com.eg"};

std::string_view path_of(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

}  // namespace

bool domain_matches(std::string_view host, std::string_view domain) {
  if (host == domain) return true;
  if (domain.empty() || host.size() <= domain.size() || ip_literal(host)) return false;
  return host.substr(host.size() - domain.size()) == domain && host[host.size() - domain.size() - 1] == '.';
}

bool public_suffix(std::string_view domain) {
  if (domain.find('.') == std::string_view::npos) return true;
  return std::find(std::begin(k_second_level), std::end(k_second_level), domain) != std::end(k_second_level);
}

bool path_matches(std::string_view request_path, std::string_view cookie_path) {
  if (request_path == cookie_path) return true;
  if (cookie_path.empty() || request_path.substr(0, cookie_path.size()) != cookie_path) return false;
  return cookie_path.back() == '/' || request_path[cookie_path.size()] == '/';
}

std::string_view default_path(std::string_view request_target) {
  const std::string_view path = path_of(request_target);
  if (path.empty() || path.front() != '/') return "/";
  const std::size_t last = path.rfind('/');
  return last == 0 ? std::string_view("/") : path.substr(0, last);
}

void CookieJar::remove(std::size_t i) {
  // Keeps the order of the rest; the removed entry's strings move to the end with their capacity.
  std::rotate(m_entries.begin() + static_cast<std::ptrdiff_t>(i),
              m_entries.begin() + static_cast<std::ptrdiff_t>(i) + 1,
              m_entries.begin() + static_cast<std::ptrdiff_t>(m_count));
  --m_count;
}

CookieJar::Stored CookieJar::store(const SetCookie& cookie, std::string_view host,
                                   std::string_view request_target, std::int64_t now) {
  bool host_only = cookie.domain.empty();
  if (!host_only) {
    assign_lower(m_domain, cookie.domain);
    if (public_suffix(m_domain)) {
      // RFC 6265 5.3 step 5: a cookie for everyone under a public suffix is refused, unless the suffix is the
      // host itself, which then gets a host-only cookie.
      if (m_domain != host) return Stored::rejected;
      host_only = true;
    } else if (!domain_matches(host, m_domain)) {
      return Stored::rejected;
    }
  }
  std::int64_t expires = INT64_MAX;
  if (cookie.max_age) {
    expires = *cookie.max_age <= 0 ? INT64_MIN : now + *cookie.max_age;
  } else if (cookie.expires) {
    expires = *cookie.expires;
  }
  const std::string_view path = cookie.path.empty() ? default_path(request_target) : cookie.path;
  const std::string_view domain = host_only ? host : std::string_view(m_domain);
  std::size_t at = m_count;
  for (std::size_t i = 0; i < m_count; ++i) {
    const Entry& e = m_entries[i];
    if (e.name == cookie.name && e.path == path && same_lower(e.domain, domain)) {
      at = i;
      break;
    }
  }
  if (expires <= now) {
    if (at == m_count) return Stored::removed;
    remove(at);
    return Stored::removed;
  }
  const bool replacing = at < m_count;
  if (!replacing) {
    if (m_count == m_capacity) remove(0);  // the cookie set longest ago makes room
    at = m_count++;
    if (m_entries.size() < m_count) m_entries.emplace_back();
  }
  Entry& e = m_entries[at];
  e.name.assign(cookie.name);
  e.value.assign(cookie.value);
  assign_lower(e.domain, domain);
  e.path.assign(path);
  e.expires = expires;
  e.host_only = host_only;
  e.secure = cookie.secure;
  return replacing ? Stored::replaced : Stored::added;
}

std::size_t CookieJar::header(std::string_view host, std::string_view request_target, bool tls,
                              std::int64_t now, std::string& out) {
  out.clear();
  const std::string_view path = path_of(request_target);
  m_sending.clear();
  for (std::size_t i = 0; i < m_count; ++i) {
    const Entry& e = m_entries[i];
    if (e.expires <= now || (e.secure && !tls)) continue;
    if (e.host_only ? host != e.domain : !domain_matches(host, e.domain)) continue;
    if (!path_matches(path.empty() ? std::string_view("/") : path, e.path)) continue;
    // Insertion by path length, longest first; equal lengths stay in the order first set (RFC 6265 5.4
    // step 2). At most m_capacity entries, and no allocation: the room was reserved.
    std::size_t at = m_sending.size();
    while (at > 0 && m_entries[m_sending[at - 1]].path.size() < e.path.size()) --at;
    m_sending.insert(m_sending.begin() + static_cast<std::ptrdiff_t>(at), i);
  }
  for (std::size_t k = 0; k < m_sending.size(); ++k) {
    const Entry& e = m_entries[m_sending[k]];
    if (k > 0) out.append("; ");
    out.append(e.name);
    out.push_back('=');
    out.append(e.value);
  }
  return m_sending.size();
}

}  // namespace openloop::http
