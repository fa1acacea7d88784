// Atomic file writes: temp file in the same directory, fsync, rename; a reader never sees half a file.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace openloop {

/// Writes `content` to `path` atomically. Errors (runtime) name the path and the OS reason.
Result<void> write_file_atomically(const std::string& path, std::string_view content);

/// Takes one piece of a file being written; errors (runtime) name the path.
using WriteSink = std::function<Result<void>(std::string_view piece)>;
/// Like write_file_atomically(), the content handed piece by piece by `produce` to the sink it is given (buffered),
/// so a large output never exists whole in memory. An error of `produce` is returned and nothing is written.
Result<void> write_file_atomically_streamed(const std::string& path,
                                            const std::function<Result<void>(const WriteSink&)>& produce);

/// Checks, before a run, that write_file_atomically(path) will be able to write `path` afterwards: the
/// path is not empty and not a directory, and its directory exists and is writable (the temp file and the
/// rename happen there). Errors (usage) name `flag`, the path and what is wrong.
Result<void> check_output_path(const std::string& path, std::string_view flag);

/// Reads a whole file. Errors (usage) name the path and the OS reason.
Result<std::string> read_file(const std::string& path);

}  // namespace openloop
