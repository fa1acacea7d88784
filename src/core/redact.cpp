// Credential headers, URL user info and secret query parameters, redacted.
#include "core/redact.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace openloop {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool is_credential_header(std::string_view name) {
  static constexpr std::array<std::string_view, 3> k_names = {"authorization", "proxy-authorization",
                                                              "cookie"};
  const std::string_view n = trim(name);
  return std::any_of(k_names.begin(), k_names.end(), [n](std::string_view k) { return iequals(n, k); });
}

std::string redact_header_line(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || !is_credential_header(line.substr(0, colon))) return std::string(line);
  return std::string(line.substr(0, colon)) + ": " + std::string(k_redacted);
}

bool is_secret_param(std::string_view name) {
  static constexpr std::array<std::string_view, 9> k_names = {
      "api_key", "apikey", "key", "token", "access_token", "password", "secret", "signature", "sig"};
  return std::any_of(k_names.begin(), k_names.end(), [name](std::string_view k) { return iequals(name, k); });
}

std::string redact_url(std::string_view url) {
  return Redactor().url(url);
}

Redactor::Redactor(std::vector<std::string> extra_params) : m_extra(std::move(extra_params)) {
  m_extra.erase(std::remove(m_extra.begin(), m_extra.end(), std::string()), m_extra.end());
}

bool Redactor::is_secret_param(std::string_view name) const {
  return openloop::is_secret_param(name) ||
         std::any_of(m_extra.begin(), m_extra.end(),
                     [name](const std::string& k) { return iequals(name, k); });
}

std::string Redactor::url(std::string_view url) const {
  const auto scheme = url.find("://");
  const std::size_t from = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::size_t end = std::min(url.find_first_of("/?#", from), url.size());
  const auto at = url.substr(from, end - from).rfind('@');
  std::string out =
      at == std::string_view::npos
          ? std::string(url)
          : std::string(url.substr(0, from)) + std::string(k_redacted) + std::string(url.substr(from + at));
  // The query: from the first '?' after the authority to the fragment; each name=value whose name is a
  // secret's.
  const std::size_t authority_end = std::min(out.find_first_of("/?#", from), out.size());
  const std::size_t query = out.find('?', authority_end);
  if (query == std::string::npos || out.find('#', authority_end) < query) return out;
  std::string redacted = out.substr(0, query + 1);
  const std::size_t fragment = std::min(out.find('#', query), out.size());
  std::string_view rest = std::string_view(out).substr(query + 1, fragment - query - 1);
  while (true) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && is_secret_param(pair.substr(0, eq))) {
      redacted.append(pair.substr(0, eq + 1)).append(k_redacted);
    } else {
      redacted.append(pair);
    }
    if (amp == std::string_view::npos) break;
    redacted.push_back('&');
    rest.remove_prefix(amp + 1);
  }
  return redacted + out.substr(fragment);
}

}  // namespace openloop
