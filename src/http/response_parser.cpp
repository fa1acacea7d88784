// llhttp glue: pause at the end of the final response so its end position (and any trailing bytes) is exact.
#include "http/response_parser.h"

namespace openloop::http {

namespace {
constexpr const char* k_closed_early = "connection closed before the response was complete";
constexpr const char* k_closed_before = "connection closed before a response was received";

ResponseParser* self(llhttp_t* p) {
  return static_cast<ResponseParser*>(p->data);
}
}  // namespace

const llhttp_settings_t& ResponseParser::settings() {
  static const llhttp_settings_t s = [] {
    llhttp_settings_t out;
    llhttp_settings_init(&out);
    out.on_message_begin = &ResponseParser::on_message_begin;
    out.on_headers_complete = &ResponseParser::on_headers_complete;
    out.on_body = &ResponseParser::on_body;
    out.on_message_complete = &ResponseParser::on_message_complete;
    return out;
  }();
  return s;
}

ResponseParser::ResponseParser() {
  llhttp_init(&m_parser, HTTP_RESPONSE, &settings());
  reset(false, true);
}

void ResponseParser::reset(bool head_request, bool /*new_connection*/) {
  // Without pipelining no parser state carries from one response to the next, so a reused connection and a
  // new one reset the same way; llhttp_reset keeps the settings and clears any pause or error.
  llhttp_reset(&m_parser);
  m_state = State::incomplete;
  m_head = head_request;
  m_keep_alive = false;
  m_started = false;
  m_status = 0;
  m_body_bytes = 0;
  m_trailing = 0;
  m_error_reason = "";
}

int ResponseParser::on_message_begin(llhttp_t* p) {
  auto* s = self(p);
  s->m_started = true;
  s->m_body_bytes = 0;
  return 0;
}

int ResponseParser::on_headers_complete(llhttp_t* p) {
  auto* s = self(p);
  const int status = llhttp_get_status_code(p);
  s->m_status = status;
  // 1 = "this message has no body". A response to HEAD, a 1xx, 204 or 304 may carry Content-Length (the size
  // the representation would have) but never a body (RFC 9110 6.4.1); llhttp would otherwise wait for those
  // bytes.
  const bool bodiless = s->m_head || status / 100 == 1 || status == 204 || status == 304;
  return bodiless ? 1 : 0;
}

int ResponseParser::on_body(llhttp_t* p, const char* /*at*/, std::size_t len) {
  self(p)->m_body_bytes += len;
  return 0;
}

int ResponseParser::on_message_complete(llhttp_t* p) {
  auto* s = self(p);
  const int status = llhttp_get_status_code(p);
  if (status >= 100 && status < 200 && status != 101)
    return 0;  // interim (100 Continue, 103 ...): keep reading
  s->m_status = status;
  s->m_keep_alive = status != 101 && llhttp_should_keep_alive(p) != 0;
  s->m_state = State::complete;
  return HPE_PAUSED;  // stop exactly here: whatever follows is not part of this response
}

ResponseParser::State ResponseParser::feed(const char* data, std::size_t len) {
  if (m_state == State::complete) {
    m_trailing = len;
    return m_state;
  }
  if (m_state == State::error || len == 0) return m_state;
  m_parser.data = this;  // refreshed on every call so the parser may be moved between calls
  m_trailing = 0;
  m_started = true;
  const llhttp_errno_t err = llhttp_execute(&m_parser, data, len);
  if (m_state == State::complete) {
    const char* end =
        (err == HPE_PAUSED || err == HPE_PAUSED_UPGRADE) ? llhttp_get_error_pos(&m_parser) : data + len;
    if (end != nullptr && end >= data && end <= data + len)
      m_trailing = static_cast<std::size_t>(data + len - end);
    return m_state;
  }
  if (err != HPE_OK) {
    m_state = State::error;
    const char* reason = llhttp_get_error_reason(&m_parser);
    m_error_reason = reason != nullptr ? reason : llhttp_errno_name(err);
  }
  return m_state;
}

ResponseParser::State ResponseParser::finish() {
  if (m_state != State::incomplete) return m_state;
  m_parser.data = this;
  const llhttp_errno_t err = llhttp_finish(&m_parser);
  if (m_state == State::complete) {
    m_keep_alive = false;  // delimited by the close itself
    return m_state;
  }
  m_state = State::error;
  m_error_reason = (err == HPE_OK && !m_started) ? k_closed_before : k_closed_early;
  return m_state;
}

}  // namespace openloop::http
