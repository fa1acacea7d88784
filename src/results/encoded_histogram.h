// An interval's histogram as compressed V2 base64 text, held in memory or parked in a spill file so that a run's
// memory stays bounded however long it lasts (docs/results.md, "Long runs").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop::results {

/// An unlinked temporary file that parked histograms are appended to and read back from. It disappears with the
/// process whatever happens. A failed read is remembered (failed()), so whoever writes the results can refuse to
/// call them complete.
class SpillFile {
 public:
  /// Creates the file in `dir` (default: $TMPDIR, else /tmp).
  static Result<std::shared_ptr<SpillFile>> open(std::string dir = "");
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Appends `text`; returns its offset.
  Result<std::int64_t> append(std::string_view text);
  /// Reads `size` bytes at `offset`; on failure returns "" and records the failure (see failed()).
  std::string read(std::int64_t offset, std::size_t size) const;
  /// Records a failure to use what was read back (e.g. a record that does not decode) as read() records its own.
  void note_failure(std::string why) const;
  /// The first read failure, empty when none happened.
  const std::string& failed() const { return m_failure; }
  /// Read failures of every spill file in this process so far, and the latest one's message: an output rendered
  /// while the count rose has gaps (cli's pipeline refuses to write it).
  struct ReadFailures {
    std::uint64_t count = 0;
    std::string latest;
  };
  static ReadFailures read_failures();
  std::int64_t size() const { return m_end; }

 private:
  SpillFile(int fd, std::string where) : m_fd(fd), m_where(std::move(where)) {}
  int m_fd;
  std::string m_where;
  std::int64_t m_end = 0;
  mutable std::string m_failure;
};

/// The text of one encoded histogram ("HISTFAAAA..."), or nothing (empty()). Copies share a parked text's file.
class EncodedHistogram {
 public:
  EncodedHistogram() = default;
  EncodedHistogram(std::string text) : m_text(std::move(text)) {}  // NOLINT(google-explicit-constructor)
  EncodedHistogram& operator=(std::string text);

  bool empty() const { return m_file ? m_size == 0 : m_text.empty(); }
  bool parked() const { return m_file != nullptr; }
  /// The text, read back from the spill file when parked ("" if that read failed: see SpillFile::failed()).
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
