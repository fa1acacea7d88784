// Trace privacy rules (workload/trace_privacy.h).
#include "workload/trace_privacy.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace openloop::workload {
namespace {

constexpr std::array<std::string_view, 4> k_credentials = {"authorization", "cookie", "set-cookie",
                                                           "proxy-authorization"};
constexpr std::array<std::string_view, 8> k_connection = {"host",       "content-length", "transfer-encoding",
                                                          "connection", "keep-alive",     "te",
                                                          "upgrade",    "proxy-connection"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool iequals_ascii(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

TracePrivacy::TracePrivacy(std::vector<std::string> keep_headers, std::vector<std::string> redact_params)
    : m_redact(std::move(redact_params)) {
  for (const auto& h : keep_headers) m_keep.push_back(lower(h));
}

void TracePrivacy::apply(TraceRecord& r) {
  bool dropped_credential = false;
  auto drop = [&](const http::Header& h) {
    const auto named = [&](std::string_view n) { return iequals_ascii(h.name, n); };
    if (std::any_of(k_connection.begin(), k_connection.end(), named)) return true;
    if (!std::any_of(k_credentials.begin(), k_credentials.end(), named)) return false;
    if (std::any_of(m_keep.begin(), m_keep.end(), named)) return false;
    dropped_credential = true;
    return true;
  };
  r.headers.erase(std::remove_if(r.headers.begin(), r.headers.end(), drop), r.headers.end());
  if (dropped_credential) ++m_credentials_dropped;
  if (!m_redact.empty()) redact_query(r.target);
}

void TracePrivacy::redact_query(std::string& target) {
  const auto q = target.find('?');
  if (q == std::string::npos) return;
  std::string out = target.substr(0, q + 1);
  std::string_view rest = std::string_view(target).substr(q + 1);
  bool first = true;
  while (true) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    const std::string_view name = pair.substr(0, eq);
    if (!first) out.push_back('&');
    first = false;
    if (std::find(m_redact.begin(), m_redact.end(), name) != m_redact.end()) {
      out.append(name).append("=").append(k_redacted);
      ++m_params_redacted;
    } else {
      out.append(pair);
    }
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  target = std::move(out);
}

}  // namespace openloop::workload
