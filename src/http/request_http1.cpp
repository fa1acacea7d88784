// HTTP/1.1 request serialization from parts.
#include "http/request_http1.h"

#include <array>
#include <charconv>

#include "http/request.h"

namespace openloop::http {
namespace {

// Decimal digits of `value` in `digits`; returns their count.
template <typename Int>
std::size_t print(Int value, std::array<char, 24>& digits) {
  const auto printed = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  return static_cast<std::size_t>(printed.ptr - digits.data());
}

bool sends_length(const RequestParts& p) {
  return (!p.body.empty() || p.flags.length_when_empty) && !p.flags.given_length;
}

constexpr std::string_view k_crlf = "\r\n";
constexpr std::string_view k_colon = ": ";

}  // namespace

void write_http1(const RequestParts& p, ExtraHeader extra, std::string& out) {
  out.clear();
  out.append(p.method).append(" ").append(p.target).append(" HTTP/1.1\r\n");
  if (!p.flags.given_host) out.append("Host: ").append(p.authority).append(k_crlf);
  if (!p.flags.given_user_agent) out.append("User-Agent: ").append(default_user_agent()).append(k_crlf);
  for (const HeaderView& h : p.headers) out.append(h.name).append(k_colon).append(h.value).append(k_crlf);
  std::array<char, 24> digits{};
  if (sends_length(p)) {
    out.append("Content-Length: ").append(digits.data(), print(p.body.size(), digits)).append(k_crlf);
  }
  if (!extra.name.empty()) {
    out.append(extra.name).append(k_colon).append(digits.data(), print(extra.value, digits)).append(k_crlf);
  }
  out.append(k_crlf).append(p.body);
}

std::size_t http1_size(const RequestParts& p, ExtraHeader extra) {
  constexpr std::size_t line_end = k_crlf.size();
  std::size_t n = p.method.size() + 1 + p.target.size() + std::string_view(" HTTP/1.1\r\n").size();
  if (!p.flags.given_host) n += std::string_view("Host: ").size() + p.authority.size() + line_end;
  if (!p.flags.given_user_agent) {
    n += std::string_view("User-Agent: ").size() + default_user_agent().size() + line_end;
  }
  for (const HeaderView& h : p.headers) n += h.name.size() + k_colon.size() + h.value.size() + line_end;
  std::array<char, 24> digits{};
  if (sends_length(p))
    n += std::string_view("Content-Length: ").size() + print(p.body.size(), digits) + line_end;
  if (!extra.name.empty()) n += extra.name.size() + k_colon.size() + print(extra.value, digits) + line_end;
  return n + line_end + p.body.size();
}

}  // namespace openloop::http
