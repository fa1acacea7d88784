// llhttp request-mode callbacks collecting the target, one watched header, Authorization, Cookie and the
// body, with size limits.
#include "http/request_parser.h"

#include <algorithm>
#include <cctype>

namespace openloop::http {
namespace {

// Bytes a header line costs beyond its name and value (": " and CRLF).
constexpr std::size_t k_header_line_overhead = 4;
// Length of the longest header name always captured ("authorization").
constexpr std::size_t k_longest_fixed = 13;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

RequestParser::RequestParser(RequestLimits limits) : m_limits(limits) {
  llhttp_settings_init(&m_settings);
  m_settings.on_message_begin = &RequestParser::on_message_begin;
  m_settings.on_url = &RequestParser::on_url;
  m_settings.on_header_field = &RequestParser::on_header_field;
  m_settings.on_header_field_complete = &RequestParser::on_header_field_complete;
  m_settings.on_header_value = &RequestParser::on_header_value;
  m_settings.on_header_value_complete = &RequestParser::on_header_value_complete;
  m_settings.on_headers_complete = &RequestParser::on_headers_complete;
  m_settings.on_body = &RequestParser::on_body;
  m_settings.on_message_complete = &RequestParser::on_message_complete;
  reset();
}

void RequestParser::watch_header(std::string_view name) {
  m_watched_name.assign(name);
}

void RequestParser::reset() {
  llhttp_init(&m_parser, HTTP_REQUEST, &m_settings);
  m_parser.data = this;
  m_error = RequestError::none;
  m_in_progress = false;
  m_paused = false;
}

RequestParser::Feed RequestParser::feed(std::string_view data) {
  if (m_error != RequestError::none) return {Status::error, 0};
  if (m_paused) {
    llhttp_resume(&m_parser);
    m_paused = false;
  }
  const llhttp_errno_t rc = llhttp_execute(&m_parser, data.data(), data.size());
  if (rc == HPE_OK) return {Status::need_more, data.size()};
  if (rc == HPE_PAUSED || rc == HPE_PAUSED_UPGRADE) {
    // on_message_complete paused the parser right after the message; error_pos is where it stopped.
    const auto consumed = static_cast<std::size_t>(llhttp_get_error_pos(&m_parser) - data.data());
    if (rc == HPE_PAUSED_UPGRADE) {
      // An upgrade (or CONNECT) request: answer it, then close; we never switch protocols.
      m_keep_alive = false;
      m_error = RequestError::malformed;
    }
    m_paused = true;
    return {Status::request, consumed};
  }
  if (m_error == RequestError::none) m_error = RequestError::malformed;
  return {Status::error, data.size()};
}

const char* RequestParser::error_reason() const {
  switch (m_error) {
    case RequestError::none:
      return "no error";
    case RequestError::header_too_large:
      return "request line and headers exceed the limit";
    case RequestError::body_too_large:
      return "request body exceeds the limit";
    case RequestError::malformed:
      break;
  }
  const char* reason = llhttp_get_error_reason(&m_parser);
  return reason != nullptr ? reason : "malformed request";
}

bool RequestParser::count_header_bytes(std::size_t n) {
  m_header_bytes += n;
  if (m_header_bytes <= m_limits.max_header_bytes) return true;
  m_error = RequestError::header_too_large;
  return false;
}

int RequestParser::on_message_begin(llhttp_t* p) {
  RequestParser& s = self(p);
  s.m_target.clear();
  s.m_field.clear();
  s.m_watched_value.clear();
  s.m_authorization.clear();
  s.m_cookie.clear();
  s.m_body.clear();
  s.m_header_bytes = 0;
  s.m_field_matches = Field::other;
  s.m_has_watched = false;
  s.m_keep_alive = true;
  s.m_in_progress = true;
  return 0;
}

int RequestParser::on_url(llhttp_t* p, const char* at, std::size_t len) {
  RequestParser& s = self(p);
  // The method and version are not reported separately in request mode; count a generous line overhead.
  if (!s.count_header_bytes(len + (s.m_target.empty() ? 16 : 0))) return -1;
  s.m_target.append(at, len);
  return 0;
}

int RequestParser::on_header_field(llhttp_t* p, const char* at, std::size_t len) {
  RequestParser& s = self(p);
  if (!s.count_header_bytes(len + (s.m_field.empty() ? k_header_line_overhead : 0))) return -1;
  // Only the watched name, Authorization and Cookie need comparing; longer names cannot match, so stop
  // collecting them.
  if (s.m_field.size() <= std::max(s.m_watched_name.size(), k_longest_fixed)) s.m_field.append(at, len);
  return 0;
}

int RequestParser::on_header_field_complete(llhttp_t* p) {
  RequestParser& s = self(p);
  if (!s.m_watched_name.empty() && iequals(s.m_field, s.m_watched_name)) {
    s.m_field_matches = Field::watched;
    if (s.m_has_watched) s.m_watched_value.push_back(',');
  } else if (iequals(s.m_field, "authorization")) {
    s.m_field_matches = Field::authorization;
    if (!s.m_authorization.empty()) s.m_authorization.push_back(',');
  } else if (iequals(s.m_field, "cookie")) {
    s.m_field_matches = Field::cookie;
    if (!s.m_cookie.empty()) s.m_cookie.append("; ");
  } else {
    s.m_field_matches = Field::other;
  }
  s.m_field.clear();
  return 0;
}

int RequestParser::on_header_value(llhttp_t* p, const char* at, std::size_t len) {
  RequestParser& s = self(p);
  if (!s.count_header_bytes(len)) return -1;
  switch (s.m_field_matches) {
    case Field::watched:
      s.m_watched_value.append(at, len);
      break;
    case Field::authorization:
      s.m_authorization.append(at, len);
      break;
    case Field::cookie:
      s.m_cookie.append(at, len);
      break;
    case Field::other:
      break;
  }
  return 0;
}

int RequestParser::on_header_value_complete(llhttp_t* p) {
  RequestParser& s = self(p);
  if (s.m_field_matches == Field::watched) s.m_has_watched = true;
  s.m_field_matches = Field::other;
  return 0;
}

int RequestParser::on_headers_complete(llhttp_t* p) {
  RequestParser& s = self(p);
  s.m_keep_alive = llhttp_should_keep_alive(p) != 0;
  if (p->content_length > s.m_limits.max_body_bytes && (p->flags & F_CONTENT_LENGTH) != 0) {
    s.m_error = RequestError::body_too_large;
    return -1;
  }
  return 0;
}

int RequestParser::on_body(llhttp_t* p, const char* at, std::size_t len) {
  RequestParser& s = self(p);
  if (s.m_body.size() + len > s.m_limits.max_body_bytes) {
    s.m_error = RequestError::body_too_large;
    return -1;
  }
  s.m_body.append(at, len);
  return 0;
}

int RequestParser::on_message_complete(llhttp_t* p) {
  RequestParser& s = self(p);
  s.m_in_progress = false;
  // Stop after each message so pipelined requests are handed over one at a time.
  return HPE_PAUSED;
}

}  // namespace openloop::http
