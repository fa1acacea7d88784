// Incremental HTTP/1.1 request parsing (llhttp in request mode), one message at a time, for servers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <llhttp.h>

namespace openloop::http {

/// Size limits a server enforces while parsing; exceeding one is an error, not a truncation.
struct RequestLimits {
  /// Request line plus header lines, in bytes (16 KiB, as Node.js and many proxies use).
  std::size_t max_header_bytes = 16 * 1024;
  /// Decoded body bytes kept for the caller (larger bodies are an error).
  std::size_t max_body_bytes = 64 * 1024;
};

/// Why parsing stopped for good; after any of these the connection must be answered (or not) and closed.
enum class RequestError {
  none,
  malformed,         ///< not HTTP/1.x (answer 400)
  header_too_large,  ///< request line + headers over RequestLimits::max_header_bytes (answer 431)
  body_too_large,    ///< body over RequestLimits::max_body_bytes (answer 413)
};

/// Parses requests from a byte stream that arrives in arbitrary pieces. Pipelined requests are returned one
/// by one: feed() stops right after each complete message. Not copyable or movable (llhttp keeps a pointer
/// to it). Single-threaded. After the first allocation of its buffers it does not allocate per request
/// unless a request is larger than every earlier one.
class RequestParser {
 public:
  enum class Status {
    need_more,  ///< every byte was consumed; the request (if any) is incomplete
    request,    ///< a complete request is available through the accessors until the next feed()
    error,      ///< parsing failed for good; see error()
  };
  struct Feed {
    Status status;
    std::size_t consumed;  ///< bytes of the input used; the rest must be fed again (after handling)
  };

  explicit RequestParser(RequestLimits limits = {});
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  /// Captures the value of one header (name compared case-insensitively); empty name captures none.
  void watch_header(std::string_view name);
  /// Forgets any partial request and error: the parser is ready for a new connection.
  void reset();

  /// Parses `data` until the end of one request, the end of the input, or an error.
  Feed feed(std::string_view data);

  // Accessors for the request just returned by feed() (Status::request); valid until the next feed().
  /// Method name as sent ("GET", "POST", ...).
  std::string_view method() const {
    return llhttp_method_name(static_cast<llhttp_method_t>(m_parser.method));
  }
  bool is_head() const { return m_parser.method == HTTP_HEAD; }
  /// Request target as sent: path and query ("/a/b?x=1").
  std::string_view target() const { return m_target; }
  /// Target without the query.
  std::string_view path() const { return std::string_view(m_target).substr(0, m_target.find('?')); }
  /// Whether the watched header was present, and its value (repeated headers joined by ",").
  bool has_watched() const { return m_has_watched; }
  std::string_view watched_value() const { return m_watched_value; }
  /// The Authorization and Cookie headers, always captured (the lab's auth flow reads them); empty when
  /// absent, repeated ones joined by "," (Authorization) or "; " (Cookie).
  std::string_view authorization() const { return m_authorization; }
  std::string_view cookie() const { return m_cookie; }
  /// Decoded body (Content-Length or chunked).
  std::string_view body() const { return m_body; }
  /// Whether the connection may carry another request after this one (HTTP/1.1 default, Connection header).
  bool keep_alive() const { return m_keep_alive; }

  /// True between the first byte of a request and its end: the basis of a server's read timeout.
  bool in_progress() const { return m_in_progress; }
  RequestError error() const { return m_error; }
  /// llhttp's reason for a malformed request (static string), or a description of the limit exceeded.
  const char* error_reason() const;

 private:
  static int on_message_begin(llhttp_t* p);
  static int on_url(llhttp_t* p, const char* at, std::size_t len);
  static int on_header_field(llhttp_t* p, const char* at, std::size_t len);
  static int on_header_field_complete(llhttp_t* p);
  static int on_header_value(llhttp_t* p, const char* at, std::size_t len);
  static int on_header_value_complete(llhttp_t* p);
  static int on_headers_complete(llhttp_t* p);
  static int on_body(llhttp_t* p, const char* at, std::size_t len);
  static int on_message_complete(llhttp_t* p);
  static RequestParser& self(llhttp_t* p) { return *static_cast<RequestParser*>(p->data); }
  bool count_header_bytes(std::size_t n);

  RequestLimits m_limits;
  llhttp_settings_t m_settings{};
  llhttp_t m_parser{};
  std::string m_watched_name;
  std::string m_target;
  std::string m_field;
  std::string m_watched_value;
  std::string m_authorization;
  std::string m_cookie;
  std::string m_body;
  std::size_t m_header_bytes = 0;
  enum class Field : std::uint8_t { other, watched, authorization, cookie };
  Field m_field_matches = Field::other;
  bool m_has_watched = false;
  bool m_keep_alive = true;
  bool m_in_progress = false;
  bool m_paused = false;
  RequestError m_error = RequestError::none;
};

}  // namespace openloop::http
