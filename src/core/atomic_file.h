// Atomic file writes: temp file in the same directory, fsync, rename; a reader never sees half a file.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop {

/// Writes `content` to `path` atomically. Errors (runtime) name the path and the OS reason.
Result<void> write_file_atomically(const std::string& path, std::string_view content);

/// Checks, before a run, that write_file_atomically(path) will be able to write `path` afterwards: the
/// path is not empty and not a directory, and its directory exists and is writable (the temp file and the
/// rename happen there). Errors (usage) name `flag`, the path and what is wrong.
Result<void> check_output_path(const std::string& path, std::string_view flag);

/// Reads a whole file. Errors (usage) name the path and the OS reason.
Result<std::string> read_file(const std::string& path);

}  // namespace openloop
