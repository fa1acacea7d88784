// The audit's readers read files: each fuzz input is written to one file per process (in /dev/shm when it
// exists) and read back by path.
#pragma once

#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "audit/record_reader.h"

namespace openloop::fuzz {

inline std::string audit_input(const std::uint8_t* data, std::size_t size) {
  static const std::string path = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
                                  "/openloop-audit-fuzz-" + std::to_string(getpid());
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return path;
  if (size > 0) std::fwrite(data, 1, size, f);
  std::fclose(f);
  return path;
}

/// Reads every record a reader opened on the input gives (at most a million), then its notes: what each reader's
/// target does with it.
template <class OpenedReader>
int drain_audit_reader(OpenedReader& reader) {
  if (!reader) return 0;
  openloop::audit::Record r;
  for (int i = 0; i < 1'000'000; ++i) {
    auto more = (*reader)->next(r);
    if (!more || !*more) break;
  }
  (void)(*reader)->notes();
  return 0;
}

}  // namespace openloop::fuzz
