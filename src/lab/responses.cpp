// Rendering of HTTP/1.1 responses: status line, Content-Length, Content-Type, optional Connection: close.
#include "lab/responses.h"

#include <cstdio>

#include <fmt/format.h>

namespace openloop::lab {
namespace {

struct ReplyInfo {
  int status;
  std::string_view body;  // empty for ok (filled to --body-size)
};

constexpr ReplyInfo k_replies[] = {
    {200, ""},
    {500, "injected error\n"},
    {429, "shed: queue at --shed-at\n"},
    {503, "queue full: --queue-limit reached\n"},
    {504, "deadline passed while queued\n"},
    {400, "bad request\n"},
    {408, "request not received in time\n"},
    {413, "request body too large\n"},
    {431, "request header fields too large\n"},
};
static_assert(std::size(k_replies) == static_cast<std::size_t>(Reply::count_));

std::string_view reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "Unknown";
  }
}

std::string head_of(int status, std::string_view content_type, std::size_t length, bool close) {
  return fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{}\r\n", status,
                     reason(status), content_type, length, close ? "Connection: close\r\n" : "");
}

}  // namespace

void ResponseCatalog::build(std::size_t body_size) {
  m_body_size = body_size;
  std::string ok_body(body_size, '.');
  if (body_size > 0) ok_body.back() = '\n';
  for (std::size_t r = 0; r < std::size(k_replies); ++r) {
    const ReplyInfo& info = k_replies[r];
    const std::string_view body = info.status == 200 ? std::string_view(ok_body) : info.body;
    for (int close = 0; close < 2; ++close) {
      Rendered& out = m_rendered[r][static_cast<std::size_t>(close)];
      out.bytes = head_of(info.status, "text/plain", body.size(), close != 0);
      out.header_length = out.bytes.size();
      out.bytes.append(body);
    }
  }
}

std::string_view ResponseCatalog::get(Reply reply, bool close, bool head) const {
  const Rendered& r = m_rendered[static_cast<std::size_t>(reply)][close ? 1 : 0];
  return head ? std::string_view(r.bytes).substr(0, r.header_length) : std::string_view(r.bytes);
}

int ResponseCatalog::status(Reply reply) {
  return k_replies[static_cast<std::size_t>(reply)].status;
}

std::string_view ResponseCatalog::body(Reply reply) const {
  const Rendered& r = m_rendered[static_cast<std::size_t>(reply)][0];
  return std::string_view(r.bytes).substr(r.header_length);
}

std::string render_response(int status, std::string_view content_type, std::string_view body, bool close,
                            std::string_view set_cookie) {
  std::string out = head_of(status, content_type, body.size(), close);
  if (!set_cookie.empty()) out.insert(out.size() - 2, fmt::format("Set-Cookie: {}\r\n", set_cookie));
  out.append(body);
  return out;
}

Reply reply_for(Outcome outcome) {
  switch (outcome) {
    case Outcome::ok:
      return Reply::ok;
    case Outcome::error:
      return Reply::server_error;
    case Outcome::shed:
      return Reply::shed;
    case Outcome::rejected:
      return Reply::unavailable;
    case Outcome::expired:
      return Reply::expired;
    case Outcome::cancelled:
      break;
  }
  return Reply::server_error;
}

int format_server_timing(char* out, std::size_t size, const ServerTiming& timing) {
  const char* cache = "";
  switch (timing.cache) {
    case CacheLookup::no_cache:
      cache = ", cache;desc=off";
      break;
    case CacheLookup::hit:
      cache = ", cache;desc=hit";
      break;
    case CacheLookup::miss:
      cache = ", cache;desc=miss";
      break;
    case CacheLookup::not_looked_up:
      break;
  }
  const int n = std::snprintf(out, size, "queue;dur=%.3f, app;dur=%.3f%s",
                              static_cast<double>(timing.queue_wait.count()) / 1e6,
                              static_cast<double>(timing.service.count()) / 1e6, cache);
  return n >= 0 && static_cast<std::size_t>(n) < size ? n : -1;
}

void append_with_server_timing(std::string& out, std::string_view response, const ServerTiming& timing) {
  const std::size_t end = response.find("\r\n\r\n");
  if (end == std::string_view::npos) {
    out.append(response);
    return;
  }
  out.append(response.substr(0, end + 2));
  char value[128];
  if (const int n = format_server_timing(value, sizeof value, timing); n > 0) {
    out.append("Server-Timing: ");
    out.append(value, static_cast<std::size_t>(n));
    out.append("\r\n");
  }
  out.append(response.substr(end + 2));
}

}  // namespace openloop::lab
