// Helpers for the audit's unit tests: fixture paths and synthetic results files written to a temporary
// folder.
#pragma once

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>

namespace openloop::audit::testing {

inline std::string fixture(const std::string& name) {
  return std::string(OPENLOOP_AUDIT_FIXTURES) + "/" + name;
}

/// Writes `content` to a new file under /tmp and returns its path (removed by the caller's TempFile).
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char name[] = "/tmp/openloop-audit-test-XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    m_path = name;
    std::ofstream(m_path, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(m_path.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

}  // namespace openloop::audit::testing
