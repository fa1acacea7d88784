// llhttp glue: pause at the end of the final response so its end position (and any trailing bytes) is exact.
#include "http/response_parser.h"

namespace openloop::http {

namespace {
constexpr const char* k_closed_early = "connection closed before the response was complete";
constexpr const char* k_closed_before = "connection closed before a response was received";
constexpr std::string_view k_retry_after = "retry-after";  // matched case-insensitively
constexpr std::string_view k_server_timing = "server-timing";

// Advances an incremental case-insensitive match of a header name by one character (−1: no match).
void advance_match(int& match, std::string_view name, char raw) {
  if (match < 0) return;
  const char c = raw >= 'A' && raw <= 'Z' ? static_cast<char>(raw - 'A' + 'a') : raw;
  const auto k = static_cast<std::size_t>(match);
  match = k < name.size() && name[k] == c ? match + 1 : -1;
}

ResponseParser* self(llhttp_t* p) {
  return static_cast<ResponseParser*>(p->data);
}
}  // namespace

const llhttp_settings_t& ResponseParser::settings(bool headers) {
  static const auto make = [](bool with_headers) {
    llhttp_settings_t out;
    llhttp_settings_init(&out);
    out.on_message_begin = &ResponseParser::on_message_begin;
    out.on_headers_complete = &ResponseParser::on_headers_complete;
    out.on_body = &ResponseParser::on_body;
    out.on_message_complete = &ResponseParser::on_message_complete;
    if (with_headers) {
      out.on_header_field = &ResponseParser::on_header_field;
      out.on_header_field_complete = &ResponseParser::on_header_field_complete;
      out.on_header_value = &ResponseParser::on_header_value;
      out.on_header_value_complete = &ResponseParser::on_header_value_complete;
    }
    return out;
  };
  static const llhttp_settings_t plain = make(false);
  static const llhttp_settings_t with_headers = make(true);
  return headers ? with_headers : plain;
}

ResponseParser::ResponseParser() {
  llhttp_init(&m_parser, HTTP_RESPONSE, &settings(false));
  reset(false, true);
}

void ResponseParser::capture_retry_after(bool on) {
  m_capture_retry_after = on;
  apply_settings();
}

void ResponseParser::capture_server_timing(bool on, std::string_view metric) {
  m_capture_server_timing = on;
  m_server_timing_metric = metric;
  apply_settings();
}

void ResponseParser::set_sink(ResponseSink* sink) {
  const bool switched = (sink != nullptr) != (m_sink != nullptr);
  m_sink = sink;
  if (switched) apply_settings();
}

void ResponseParser::apply_settings() {
  llhttp_init(&m_parser, HTTP_RESPONSE,
              &settings(m_capture_retry_after || m_capture_server_timing || m_sink != nullptr));
  reset(m_head, true);
}

void ResponseParser::clear_headers() {
  m_retry_after_len = 0;
  m_has_retry_after = false;
  m_field_match = 0;
  m_in_retry_after = false;
  m_st_match = 0;
  m_in_server_timing = false;
  m_server_timing_seen = false;
  m_st_len = 0;
  m_st_overflow = false;
  m_server_timing = ServerTimingValue{};
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
  clear_headers();
}

int ResponseParser::on_message_begin(llhttp_t* p) {
  auto* s = self(p);
  s->m_started = true;
  s->m_body_bytes = 0;
  s->clear_headers();  // a 1xx interim response's headers do not belong to the final one
  if (s->m_sink != nullptr) s->m_sink->clear();
  return 0;
}

int ResponseParser::on_header_field(llhttp_t* p, const char* at, std::size_t len) {
  // Matched incrementally: llhttp may deliver one name in several pieces.
  auto* s = self(p);
  if (s->m_sink != nullptr) s->m_sink->header_name({at, len});
  for (std::size_t i = 0; i < len && (s->m_field_match >= 0 || s->m_st_match >= 0); ++i) {
    advance_match(s->m_field_match, k_retry_after, at[i]);
    advance_match(s->m_st_match, k_server_timing, at[i]);
  }
  return 0;
}

int ResponseParser::on_header_field_complete(llhttp_t* p) {
  auto* s = self(p);
  if (s->m_sink != nullptr) s->m_sink->header_name_done();
  s->m_in_retry_after = s->m_capture_retry_after &&
                        s->m_field_match == static_cast<int>(k_retry_after.size()) &&
                        !s->m_has_retry_after;  // the first Retry-After counts
  s->m_in_server_timing =
      s->m_capture_server_timing && s->m_st_match == static_cast<int>(k_server_timing.size());
  if (s->m_in_server_timing) {
    s->m_server_timing_seen = true;
    s->m_st_len = 0;
    s->m_st_overflow = false;
  }
  s->m_field_match = 0;
  s->m_st_match = 0;
  return 0;
}

int ResponseParser::on_header_value(llhttp_t* p, const char* at, std::size_t len) {
  auto* s = self(p);
  if (s->m_sink != nullptr) s->m_sink->header_value({at, len});
  if (s->m_in_server_timing) {
    const std::size_t room = sizeof s->m_st_value - s->m_st_len;
    if (len > room) s->m_st_overflow = true;
    const std::size_t n = len < room ? len : room;
    for (std::size_t i = 0; i < n; ++i) s->m_st_value[s->m_st_len + i] = at[i];
    s->m_st_len += n;
    return 0;
  }
  if (!s->m_in_retry_after) return 0;
  const std::size_t room = sizeof s->m_retry_after - s->m_retry_after_len;
  const std::size_t n = len < room ? len : room;
  for (std::size_t i = 0; i < n; ++i) s->m_retry_after[s->m_retry_after_len + i] = at[i];
  s->m_retry_after_len += n;
  return 0;
}

int ResponseParser::on_header_value_complete(llhttp_t* p) {
  auto* s = self(p);
  if (s->m_in_retry_after) s->m_has_retry_after = true;
  s->m_in_retry_after = false;
  if (s->m_in_server_timing) {
    s->m_in_server_timing = false;
    s->add_server_timing();
  }
  return 0;
}

void ResponseParser::add_server_timing() {
  using Status = ServerTimingValue::Status;
  if (m_server_timing.status == Status::malformed) return;  // one unreadable line spoils the response's account
  const ServerTimingValue v = m_st_overflow
                                  ? ServerTimingValue{Status::malformed, Nanos(0)}
                                  : parse_server_timing({m_st_value, m_st_len}, m_server_timing_metric);
  if (v.status == Status::malformed) {
    m_server_timing = v;
  } else if (v.status == Status::valid) {
    // Several lines: their durations add up (sum), or the first line holding the named metric counts.
    if (m_server_timing.status != Status::valid) {
      m_server_timing = v;
    } else if (m_server_timing_metric.empty()) {
      m_server_timing.duration += v.duration;
    }
  }
}

int ResponseParser::on_headers_complete(llhttp_t* p) {
  auto* s = self(p);
  const int status = llhttp_get_status_code(p);
  s->m_status = status;
  if (s->m_sink != nullptr) s->m_sink->set_status(status);
  // 1 = "this message has no body". A response to HEAD, a 1xx, 204 or 304 may carry Content-Length (the size
  // the representation would have) but never a body (RFC 9110 6.4.1); llhttp would otherwise wait for those
  // bytes.
  const bool bodiless = s->m_head || status / 100 == 1 || status == 204 || status == 304;
  return bodiless ? 1 : 0;
}

int ResponseParser::on_body(llhttp_t* p, const char* at, std::size_t len) {
  auto* s = self(p);
  s->m_body_bytes += len;
  if (s->m_sink != nullptr) s->m_sink->body({at, len});
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
