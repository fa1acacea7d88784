// HAR 1.2 files (a browser's or a proxy's recording) as traces: the document read as a stream, one entry of
// log.entries at a time, and each entry read as a request.
#pragma once

#include <array>
#include <cstddef>
#include <istream>
#include <memory>
#include <string>

#include "workload/trace_reader.h"

namespace openloop::workload {

/// The largest HAR entry read (16 MiB, its response's content included): a larger one is a bad entry, so
/// memory stays bounded whatever the file holds.
inline constexpr std::size_t k_max_har_entry = std::size_t{16} << 20;

/// Cuts a HAR document into the JSON text of each entry of log.entries, in file order, without holding the
/// document: memory is one entry (at most k_max_har_entry) and a 64 KiB buffer. Members other than
/// log.entries are read over. Units are numbered by entry (1-based) and carry the line where each starts.
/// Errors (usage): the document is not a JSON object, has no log.entries array (naming what was found), or
/// ends before its entries do (the truncated entry is then given as a unit of its own first, which the parser
/// refuses). Not thread-safe.
class HarSplitter final : public TraceSplitter {
 public:
  HarSplitter(std::string name, std::unique_ptr<std::istream> in);

  Result<bool> next(TraceUnit& out) override;
  Result<void> rewind() override;
  std::string_view unit_name() const override { return "entry"; }

 private:
  int get();         // the next byte, or -1 at the end
  int peek();        // the next byte without taking it, or -1
  int skip_space();  // takes white space; peeks the next byte
  Result<void> skip_value();
  Result<std::string> read_key();
  Result<void> find_entries();
  Result<void> expect(char c, std::string_view where);
  Result<void> not_har(std::string_view why) const;

  std::string m_name;
  std::unique_ptr<std::istream> m_in;
  std::array<char, 65536> m_buffer{};
  std::size_t m_pos = 0, m_len = 0;
  std::uint64_t m_line = 1;
  std::uint64_t m_entries = 0;
  bool m_in_entries = false;  // inside log.entries' brackets
  bool m_done = false;
};

/// Reads one HAR 1.2 entry: request.method, request.url (an absolute URL: its path and query),
/// request.headers (HTTP/2 pseudo-headers such as ":authority" dropped), request.postData.text (base64 when
/// postData.encoding is "base64"), startedDateTime (RFC 3339 with its fraction and offset) as the start,
/// pageref as the session; response.status and response.content.size (or bodySize) when present.
/// request.cookies is not read (the Cookie header holds the same, and is dropped unless kept).
class HarEntryParser final : public TraceLineParser {
 public:
  Result<ParsedUnit> parse(std::string_view entry, TraceRecord& out) override;
};

/// True when `head` (the first bytes of a file) opens a JSON object whose first key is "log" (after white
/// space and a UTF-8 byte order mark): a HAR document.
bool looks_like_har(std::string_view head);

}  // namespace openloop::workload
