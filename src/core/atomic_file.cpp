// Temp + fsync + rename.
#include "core/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

namespace openloop {
namespace {

// The temp file: its descriptor is closed and, unless kept, the file removed on every path out (a failed
// write, fsync or close must not leak the descriptor or leave *.tmp.PID behind).
class TempFile {
 public:
  explicit TempFile(std::string path)
      : m_path(std::move(path)),
        m_fd(::open(m_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) {}
  ~TempFile() {
    if (m_fd >= 0) ::close(m_fd);
    if (!m_kept) ::unlink(m_path.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return m_fd; }
  const std::string& path() const { return m_path; }
  /// Closes the descriptor; returns errno, or 0.
  int close() {
    const int rc = ::close(m_fd);
    m_fd = -1;
    return rc == 0 ? 0 : errno;
  }
  void keep() { m_kept = true; }

 private:
  std::string m_path;
  int m_fd;
  bool m_kept = false;
};

}  // namespace

namespace {

Result<void> write_all(int fd, const std::string& path, std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      return runtime_error(fmt::format("{}: write failed: {}", path, std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  return {};
}

// Temp file, the content written by `write(fd)`, fsync, close, rename.
template <class Write>
Result<void> write_through_temp(const std::string& path, const Write& write) {
  TempFile tmp(fmt::format("{}.tmp.{}", path, ::getpid()));
  if (tmp.fd() < 0) {
    const int err = errno;
    return runtime_error(fmt::format("{}: cannot write: {}", path, std::strerror(err)));
  }
  OPENLOOP_TRY_VOID(write(tmp.fd()));
  if (::fsync(tmp.fd()) != 0) {
    const int err = errno;
    return runtime_error(fmt::format("{}: write failed (fsync): {}", path, std::strerror(err)));
  }
  if (const int err = tmp.close(); err != 0) {
    return runtime_error(fmt::format("{}: write failed (close): {}", path, std::strerror(err)));
  }
  if (std::rename(tmp.path().c_str(), path.c_str()) != 0) {
    const int err = errno;
    return runtime_error(fmt::format("{}: cannot rename into place: {}", path, std::strerror(err)));
  }
  tmp.keep();
  return {};
}

}  // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view content) {
  return write_through_temp(path, [&](int fd) { return write_all(fd, path, content); });
}

Result<void> write_file_atomically_streamed(const std::string& path,
                                            const std::function<Result<void>(const WriteSink&)>& produce) {
  return write_through_temp(path, [&](int fd) -> Result<void> {
    constexpr std::size_t k_buffer = 1 << 16;
    std::string buffer;
    buffer.reserve(k_buffer);
    const WriteSink sink = [&](std::string_view piece) -> Result<void> {
      if (buffer.size() + piece.size() > k_buffer) {
        OPENLOOP_TRY_VOID(write_all(fd, path, buffer));
        buffer.clear();
      }
      if (piece.size() >= k_buffer) return write_all(fd, path, piece);
      buffer.append(piece);
      return {};
    };
    OPENLOOP_TRY_VOID(produce(sink));
    return write_all(fd, path, buffer);
  });
}

Result<void> check_output_path(const std::string& path, std::string_view flag) {
  if (path.empty()) return usage_error(fmt::format("{}: the file name is empty", flag));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return usage_error(fmt::format("{}: \"{}\" is a directory; give a file name", flag, path));
  }
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return usage_error(fmt::format("{}: the directory of \"{}\" does not exist", flag, path));
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return usage_error(
        fmt::format("{}: cannot write \"{}\": its directory {} is not writable", flag, path, dir));
  }
  return {};
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return usage_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace openloop
