// What a plan may keep of a response beyond its framing: the status, named headers and the body, each up to a
// cap, in memory taken when a response first needs it and kept for the next (for captures of a later flow step).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::http {

/// A bounded sink a ResponseParser feeds with the final response (a 1xx interim response's parts are
/// dropped). Off unless a plan asks for one: the parser runs no code for it when none is set. A part's memory
/// grows on demand (never zero-filled), up to its cap, and clear() keeps it: a sink that has held a response of
/// a size allocates nothing for the next one up to that size. Constructing one costs its names only (no
/// buffer of the caps' size), so a worker can make one per exchange slot at start-up. Single-threaded.
class ResponseSink {
 public:
  /// `headers`: the names to keep (matched case-insensitively; the first occurrence of each counts, except
  /// Set-Cookie, whose occurrences are all kept, one per line: "a=1; Path=/\nb=2"), each value cut at
  /// `value_cap` bytes; the body cut at `body_cap` bytes (0: none kept).
  ResponseSink(std::vector<std::string> headers, std::size_t value_cap, std::size_t body_cap);

  /// A new response begins: forgets the last one's parts.
  void clear();
  void set_status(int status) { m_status = status; }
  /// A piece of a header name (llhttp may deliver one name in several pieces), then its end.
  void header_name(std::string_view piece);
  void header_name_done();
  /// A piece of the current header's value.
  void header_value(std::string_view piece);
  /// A piece of the (de-chunked) body.
  void body(std::string_view piece);

  /// The final response's status (0 before one was read).
  int status() const { return m_status; }
  /// The value of header `i` (in the constructor's order), or nullopt when the response had none (or `i` is
  /// not the index of a name given to the constructor).
  std::optional<std::string_view> header(std::size_t i) const;
  /// The body, up to the cap.
  std::string_view body() const { return m_body; }
  /// True when the body was longer than the cap (or a header value longer than its cap).
  bool truncated() const { return m_truncated; }
  /// The bytes its buffers hold room for now: grown by the responses so far, up to the caps (a part of up to 15
  /// bytes fits inside its std::string and counts as 15).
  std::size_t reserved() const;

 private:
  struct Kept {
    std::string name;   // lower case
    std::string value;  // up to value_cap bytes
    bool seen = false;
    bool every = false;  // Set-Cookie: every occurrence kept, one per line
    int match = 0;  // how much of the name the current field matched (−1: it does not)
  };
  std::vector<Kept> m_headers;
  std::string m_body;
  std::size_t m_body_cap;
  std::size_t m_value_cap;
  Kept* m_current = nullptr;  // the header whose value is being read, null when it is not kept
  int m_status = 0;
  bool m_truncated = false;
};

}  // namespace openloop::http
