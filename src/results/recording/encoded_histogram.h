// An interval's histogram as compressed V2 base64 text, held in memory or parked in a spill file so that a run's
// memory stays bounded however long it lasts (docs/results.md, "Long runs").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::results {

/// An unlinked temporary file that parked histograms are appended to and read back from. It disappears with
/// the process whatever happens. A failed read is reported through Result by read(); the callers that cannot
/// return one (IntervalSeries::operator[], EncodedHistogram::text()) note it on the file, so whoever writes
/// the results can refuse to call them complete (read_back_since()). Not thread-safe.
class SpillFile {
 public:
  /// Creates the file in `dir` (default: $TMPDIR, else /tmp).
  static Result<std::shared_ptr<SpillFile>> open(std::string dir = "");
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Appends `text`; returns its offset.
  Result<std::int64_t> append(std::string_view text);
  /// The `size` bytes at `offset`; a runtime error naming the file's directory when they cannot all be read
  /// (an I/O error, or a file cut short under it).
  Result<std::string> read(std::int64_t offset, std::size_t size) const;
  /// Records a failure to read back what a caller needed (read()'s error, a record that does not decode).
  void note_failure(std::string why) const;
  /// Failures noted so far on this file, and the first one's message (empty when none).
  std::uint64_t failures() const { return m_failures; }
  const std::string& failed() const { return m_failure; }
  /// A runtime error with the first failure's message when failures() exceeds `before` (an output rendered
  /// since the count was `before` has gaps), success otherwise.
  Result<void> read_back_since(std::uint64_t before) const;
  std::int64_t size() const { return m_end; }

 private:
  SpillFile(int fd, std::string where) : m_fd(fd), m_where(std::move(where)) {}
  int m_fd;
  std::string m_where;
  std::int64_t m_end = 0;
  mutable std::string m_failure;
  mutable std::uint64_t m_failures = 0;
};

/// The read-back failures an output's rendering causes: the failures noted on each of `files` when it is
/// made, compared by since() with those noted afterwards.
class ReadBackCheck {
 public:
  explicit ReadBackCheck(std::vector<std::shared_ptr<const SpillFile>> files);
  /// A runtime error with the message of a file that noted a failure since construction (the output rendered
  /// meanwhile has gaps); success otherwise.
  Result<void> since() const;

 private:
  std::vector<std::shared_ptr<const SpillFile>> m_files;
  std::vector<std::uint64_t> m_before;
};

/// The text of one encoded histogram ("HISTFAAAA..."), or nothing (empty()). Copies share a parked text's file.
class EncodedHistogram {
 public:
  EncodedHistogram() = default;
  EncodedHistogram(std::string text) : m_text(std::move(text)) {}  // NOLINT(google-explicit-constructor)
  EncodedHistogram& operator=(std::string text);

  bool empty() const { return m_file ? m_size == 0 : m_text.empty(); }
  bool parked() const { return m_file != nullptr; }
  /// The text, read back from the spill file when parked ("" if that read failed, noted on the file: see
  /// SpillFile::read_back_since()).
  std::string text() const;
  /// Moves the text into `file`; on a write failure the text stays in memory and the error is returned.
  Result<void> park(const std::shared_ptr<SpillFile>& file);
  /// Bytes this object holds in memory for its text.
  std::size_t resident_bytes() const { return m_text.size(); }

 private:
  std::string m_text;
  std::shared_ptr<SpillFile> m_file;
  std::int64_t m_offset = 0;
  std::size_t m_size = 0;
};

}  // namespace openloop::results
