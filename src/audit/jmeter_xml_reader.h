// JMeter's XML JTL (`jmeter.save.saveservice.output_format=xml`: `<testResults>` holding `<httpSample>` and
// `<sample>` elements), read as a stream of bytes by a small tag scanner (docs/audit.md#jmeter).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "audit/record_reader.h"

namespace openloop::audit {

/// The value of attribute `name` in a start tag's text (`httpSample t="12" ts="..."`), entities decoded;
/// false when absent. Exposed for tests.
bool xml_attribute(std::string_view tag, std::string_view name, std::string& value);

/// Reads the samples directly inside `<testResults>`: `ts` (milliseconds since the epoch, at the send),
/// `t` (elapsed ms), `tn` (thread name), `s` (success), `lb` (label). Samples nested in a sample (a
/// transaction's children, redirects) are counted and skipped: the parent is the thread's request. Memory is
/// the read buffer and one tag (at most 1 MiB; a longer tag is a bad record), whatever the file's size and
/// line lengths: response data between tags is skipped, not held.
class JmeterXmlReader : public RecordReader {
 public:
  static Result<std::unique_ptr<RecordReader>> open(const std::string& path);
  Result<bool> next(Record& out) override;
  const ReaderTraits& traits() const override { return m_traits; }
  const BadLines& bad_lines() const override { return m_bad; }
  std::vector<std::string> notes() const override;

 private:
  JmeterXmlReader() = default;
  bool get(char& c);
  /// Reads up to and including the '>' that ends the tag whose '<' was just read, into m_tag (without the
  /// brackets); false at the end of the file first.
  bool read_tag();
  bool skip_until(std::string_view end);
  void bad(std::int64_t line, std::string_view what);
  bool sample_of(Record& out);

  std::string m_path;
  std::ifstream m_in;
  std::vector<char> m_buffer = std::vector<char>(1 << 16);
  std::size_t m_at = 0, m_size = 0;
  std::int64_t m_line = 1, m_tag_line = 1;
  std::string m_tag;
  bool m_tag_too_long = false;
  char m_tag_last = 0;  ///< the tag's last byte before '>', kept even when the tag is too long to keep
  int m_depth = 0;
  bool m_closed = false;  ///< </testResults> seen
  std::int64_t m_nested = 0;
  BadLines m_bad;
  ReaderTraits m_traits;
  std::string m_value;
};

}  // namespace openloop::audit
