// Parking encoded histograms in an unlinked temporary file, and reading them back.
#include "results/recording/encoded_histogram.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace openloop::results {

namespace {
std::string error_text(int err) {
  char buf[128];
  // GNU strerror_r: thread-safe, returns the message (maybe not in buf).
  return strerror_r(err, buf, sizeof buf);
}
}  // namespace

Result<std::shared_ptr<SpillFile>> SpillFile::open(std::string dir) {
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    // Filesystems without O_TMPFILE: a named file, unlinked at once.
    std::string name = dir + "/openloop-spill-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) {
      return runtime_error(
          fmt::format("{}: cannot create the interval spill file: {} (set TMPDIR to a writable directory)", dir,
                      error_text(errno)));
    }
    ::unlink(name.c_str());
  }
  return std::shared_ptr<SpillFile>(new SpillFile(fd, dir));
}

SpillFile::~SpillFile() {
  ::close(m_fd);
}

Result<std::int64_t> SpillFile::append(std::string_view text) {
  const std::int64_t at = m_end;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pwrite(m_fd, text.data() + done, text.size() - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return runtime_error(fmt::format("{}: cannot write the interval spill file: {}", m_where,
                                       n < 0 ? error_text(errno) : std::string("no progress")));
    }
    done += static_cast<std::size_t>(n);
  }
  m_end += static_cast<std::int64_t>(text.size());
  return at;
}

void SpillFile::note_failure(std::string why) const {
  if (m_failure.empty()) m_failure = std::move(why);
  ++m_failures;
}

Result<void> SpillFile::read_back_since(std::uint64_t before) const {
  if (m_failures > before) return runtime_error(m_failure);
  return {};
}

Result<std::string> SpillFile::read(std::int64_t offset, std::size_t size) const {
  std::string out(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(m_fd, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return runtime_error(
          fmt::format("{}: cannot read back the interval spill file: {}", m_where,
                      n < 0 ? error_text(errno) : std::string("it is shorter than written")));
    }
    done += static_cast<std::size_t>(n);
  }
  return out;
}

ReadBackCheck::ReadBackCheck(std::vector<std::shared_ptr<const SpillFile>> files)
    : m_files(std::move(files)) {
  for (const auto& f : m_files) m_before.push_back(f->failures());
}

Result<void> ReadBackCheck::since() const {
  for (std::size_t i = 0; i < m_files.size(); ++i)
    OPENLOOP_TRY_VOID(m_files[i]->read_back_since(m_before[i]));
  return {};
}

EncodedHistogram& EncodedHistogram::operator=(std::string text) {
  m_text = std::move(text);
  m_file.reset();
  m_offset = 0;
  m_size = 0;
  return *this;
}

std::string EncodedHistogram::text() const {
  if (!m_file) return m_text;
  auto text = m_file->read(m_offset, m_size);
  if (!text) {
    m_file->note_failure(text.error().message);
    return "";
  }
  return std::move(*text);
}

Result<void> EncodedHistogram::park(const std::shared_ptr<SpillFile>& file) {
  if (m_file || m_text.empty()) return {};
  m_offset = OPENLOOP_TRY(file->append(m_text));
  m_size = m_text.size();
  m_file = file;
  std::string().swap(m_text);
  return {};
}

}  // namespace openloop::results
