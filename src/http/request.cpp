// Constant request validation and building, plus the -H header argument parser.
#include "http/request.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <fmt/format.h>

#include "http/ascii_text.h"

#ifndef OPENLOOP_VERSION
#define OPENLOOP_VERSION "0.1.0"  // the CLI target defines the real one from CMake's PROJECT_VERSION
#endif

namespace openloop::http {

namespace {

constexpr std::string_view k_token_chars = "letters, digits and !#$%&'*+-.^_`|~";

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) continue;
    if (std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) return false;
  }
  return true;
}

bool has_line_break(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) != value.npos;
}

Result<void> check_header(const Header& h) {
  if (!is_token(h.name)) {
    return usage_error(fmt::format("header '{}: {}': name '{}' is not a token; a header name is made of {}",
                                   h.name, h.value, h.name, k_token_chars));
  }
  if (has_line_break(h.value)) {
    return usage_error(fmt::format(
        "header '{}': the value contains CR, LF or NUL; a header value is a single line", h.name));
  }
  return {};
}

}  // namespace

std::string_view default_user_agent() {
  return "openloop/" OPENLOOP_VERSION;
}

Result<ConstantRequest> build_request(std::string_view method, const net::Url& url,
                                      const std::vector<Header>& headers, std::string_view body) {
  if (!is_token(method)) {
    return usage_error(fmt::format("method '{}' is not a token; use e.g. GET, POST, PUT, DELETE (made of {})",
                                   method, k_token_chars));
  }
  if (url.target.empty() || std::any_of(url.target.begin(), url.target.end(), [](char c) {
        return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
      })) {
    return usage_error(
        fmt::format("request target '{}' is empty or contains spaces or control characters; "
                    "percent-encode them",
                    url.target));
  }
  bool user_host = false;
  bool user_agent = false;
  bool user_length = false;
  for (const auto& h : headers) {
    if (auto checked = check_header(h); !checked) return tl::unexpected(checked.error());
    if (iequals(h.name, "Host")) user_host = true;
    if (iequals(h.name, "User-Agent")) user_agent = true;
    if (iequals(h.name, "Transfer-Encoding")) {
      return usage_error(
          fmt::format("header 'Transfer-Encoding: {}': not supported; the body is always sent with "
                      "Content-Length (remove the header)",
                      h.value));
    }
    if (iequals(h.name, "Content-Length")) {
      if (h.value != std::to_string(body.size())) {
        return usage_error(
            fmt::format("header 'Content-Length: {}' does not match the body's {} bytes; remove the "
                        "header (it is added automatically)",
                        h.value, body.size()));
      }
      user_length = true;
    }
  }
  RequestBuffer parts;
  const auto field = [&](std::string_view text, RequestBuffer::Field f) {
    parts.append(text);
    parts.end(f);
  };
  field(method, RequestBuffer::Field::method);
  field(url.target, RequestBuffer::Field::target);
  field(url.host_header, RequestBuffer::Field::authority);
  for (const auto& h : headers) {
    field(h.name, RequestBuffer::Field::header_name);
    field(h.value, RequestBuffer::Field::header_value);
  }
  field(body, RequestBuffer::Field::body);
  parts.finish(RequestFlags{user_host, user_agent, user_length,
                            method == "POST" || method == "PUT" || method == "PATCH"});
  return ConstantRequest(std::move(parts));
}

Result<std::string> render_request(std::string_view method, const net::Url& url,
                                   const std::vector<Header>& headers, std::string_view body) {
  const ConstantRequest request = OPENLOOP_TRY(build_request(method, url, headers, body));
  return std::string(request.http1());
}

Result<Header> parse_header_arg(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return usage_error(fmt::format("-H '{}': no ':' found; use 'Name: value'", text));
  }
  const auto name = text.substr(0, colon);
  if (!is_token(name)) {
    return usage_error(
        fmt::format("-H '{}': '{}' is not a valid header name ({}, no spaces); use 'Name: value'", text, name,
                    k_token_chars));
  }
  auto value = text.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (has_line_break(value)) {
    return usage_error(
        fmt::format("-H '{}': the value contains CR, LF or NUL; use 'Name: value' on one line", name));
  }
  return Header{std::string(name), std::string(value)};
}

}  // namespace openloop::http
