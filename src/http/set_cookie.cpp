// Set-Cookie parsing (RFC 6265 section 5.2) and its cookie-date algorithm (section 5.1.1).
#include "http/set_cookie.h"

#include <array>
#include <cctype>

#include "http/ascii_text.h"

namespace openloop::http {
namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}

// RFC 6265 5.1.1: delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
bool delimiter(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u == 0x09 || (u >= 0x20 && u <= 0x2F) || (u >= 0x3B && u <= 0x40) || (u >= 0x5B && u <= 0x60) ||
         (u >= 0x7B && u <= 0x7E);
}

// 1*max DIGIT at the start of `s`, followed by nothing or a non-digit: its value and length.
std::optional<std::pair<int, std::size_t>> leading_number(std::string_view s, std::size_t min,
                                                          std::size_t max) {
  std::size_t n = 0;
  int value = 0;
  while (n < s.size() && digit(s[n])) {
    if (n == max) return std::nullopt;
    value = value * 10 + (s[n] - '0');
    ++n;
  }
  if (n < min) return std::nullopt;
  return std::pair{value, n};
}

// time = hms-time ( non-digit *OCTET ); hms-time = 1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT.
bool read_time(std::string_view t, int& h, int& m, int& s) {
  int parts[3];
  for (int i = 0; i < 3; ++i) {
    const auto n = leading_number(t, 1, 2);
    if (!n) return false;
    parts[i] = n->first;
    t.remove_prefix(n->second);
    if (i < 2) {
      if (t.empty() || t.front() != ':') return false;
      t.remove_prefix(1);
    }
  }
  h = parts[0];
  m = parts[1];
  s = parts[2];
  return true;
}

// Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? static_cast<unsigned>(-3) : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

unsigned days_in_month(int year, int month) {
  static constexpr std::array<unsigned, 12> k_days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : k_days[static_cast<std::size_t>(month - 1)];
}

// Max-Age: "-"? 1*DIGIT, else ignored. Clamped to ±100 years (a longer one is as good as forever here).
std::optional<std::int64_t> parse_max_age(std::string_view v) {
  if (v.empty()) return std::nullopt;
  const bool negative = v.front() == '-';
  if (negative) v.remove_prefix(1);
  if (v.empty()) return std::nullopt;
  constexpr std::int64_t k_cap = 100LL * 366 * 24 * 3600;
  std::int64_t n = 0;
  for (const char c : v) {
    if (!digit(c)) return std::nullopt;
    if (n < k_cap) n = n * 10 + (c - '0');
  }
  if (n > k_cap) n = k_cap;
  return negative ? -n : n;
}

void read_attribute(std::string_view attribute, SetCookie& out) {
  const std::size_t eq = attribute.find('=');
  const std::string_view name = trim_ows(attribute.substr(0, eq));
  const std::string_view value =
      eq == std::string_view::npos ? std::string_view() : trim_ows(attribute.substr(eq + 1));
  if (iequals(name, "expires")) {
    if (const auto t = parse_cookie_date(value)) out.expires = t;
  } else if (iequals(name, "max-age")) {
    if (const auto a = parse_max_age(value)) out.max_age = a;
  } else if (iequals(name, "domain")) {
    if (value.empty()) return;
    out.domain = value.front() == '.' ? value.substr(1) : value;
  } else if (iequals(name, "path")) {
    out.path = !value.empty() && value.front() == '/' ? value : std::string_view();
  } else if (iequals(name, "secure")) {
    out.secure = true;
  }
}

}  // namespace

std::optional<SetCookie> parse_set_cookie(std::string_view header) {
  const std::size_t semi = header.find(';');
  const std::string_view pair = header.substr(0, semi);
  const std::size_t eq = pair.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  SetCookie out;
  out.name = trim_ows(pair.substr(0, eq));
  out.value = trim_ows(pair.substr(eq + 1));
  if (out.name.empty()) return std::nullopt;
  std::string_view rest = semi == std::string_view::npos ? std::string_view() : header.substr(semi + 1);
  while (!rest.empty()) {
    const std::size_t next = rest.find(';');
    read_attribute(rest.substr(0, next), out);
    rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
  }
  return out;
}

std::optional<std::int64_t> parse_cookie_date(std::string_view text) {
  static constexpr std::array<std::string_view, 12> k_months = {"jan", "feb", "mar", "apr", "may", "jun",
                                                                "jul", "aug", "sep", "oct", "nov", "dec"};
  bool found_time = false, found_day = false, found_month = false, found_year = false;
  int hour = 0, minute = 0, second = 0, day = 0, month = 0, year = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && delimiter(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !delimiter(text[i])) ++i;
    const std::string_view token = text.substr(start, i - start);
    if (token.empty()) continue;
    if (!found_time && read_time(token, hour, minute, second)) {
      found_time = true;
    } else if (const auto d = leading_number(token, 1, 2); !found_day && d) {
      found_day = true;
      day = d->first;
    } else if (!found_month && token.size() >= 3 && [&] {
                 for (std::size_t m = 0; m < k_months.size(); ++m) {
                   if (iequals(token.substr(0, 3), k_months[m])) {
                     month = static_cast<int>(m) + 1;
                     return true;
                   }
                 }
                 return false;
               }()) {
      found_month = true;
    } else if (const auto y = leading_number(token, 2, 4); !found_year && y) {
      found_year = true;
      year = y->first;
    }
  }
  if (!(found_time && found_day && found_month && found_year)) return std::nullopt;
  if (year >= 70 && year <= 99) year += 1900;
  if (year >= 0 && year <= 69) year += 2000;
  if (year < 1601 || hour > 23 || minute > 59 || second > 59 || day < 1) return std::nullopt;
  if (static_cast<unsigned>(day) > days_in_month(year, month)) return std::nullopt;
  return days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
         hour * 3600 + minute * 60 + second;
}

}  // namespace openloop::http
