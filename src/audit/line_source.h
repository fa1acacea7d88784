// A results file read line by line (memory flat in its size), counting lines and keeping the first bad one.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::audit {

/// Lines that could not be read as records: skipped, counted, the first described.
struct BadLines {
  std::int64_t count = 0;
  std::string first;  ///< "FILE:LINE: what was found; what is expected", empty when count is 0
};

class LineSource {
 public:
  /// Opens `path`; a usage error naming it when it cannot be read.
  static Result<LineSource> open(const std::string& path);

  /// The next line without its end ("\n" or "\r\n"); false at the end of the file.
  bool next(std::string& line);
  /// Number of the line last returned by next() (1-based).
  std::int64_t line_number() const { return m_line; }
  const std::string& path() const { return m_path; }

  /// Counts the line last returned as bad; keeps the first description ("what was found; what is expected").
  void bad(std::string_view what);
  const BadLines& bad_lines() const { return m_bad; }
  /// "FILE:LINE: what", for errors that end reading.
  std::string where(std::string_view what) const;

 private:
  std::string m_path;
  std::ifstream m_in;
  std::int64_t m_line = 0;
  BadLines m_bad;
};

}  // namespace openloop::audit
