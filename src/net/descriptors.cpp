// Growing the descriptor table up front: duplicating a descriptor to the highest number wanted makes the
// kernel size the table for it in one step.
#include "net/descriptors.h"

#include <algorithm>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace openloop::net {

void reserve_descriptor_table(std::uint64_t count) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  const std::uint64_t top = std::min<std::uint64_t>({count, rl.rlim_cur, 1U << 30}) - 1;
  if (count == 0 || top < 64 || descriptor_table_size() > top) return;
  const int source = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (source < 0) return;
  const int high = fcntl(source, F_DUPFD_CLOEXEC, static_cast<int>(top));
  if (high >= 0) ::close(high);
  ::close(source);
}

std::uint64_t descriptor_table_size() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("FDSize:", 0) == 0) return std::stoull(line.substr(7));
  }
  return 0;
}

}  // namespace openloop::net
