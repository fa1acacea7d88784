// The text of an errno value, safe to call from any thread (std::strerror is not: it may return a buffer
// shared by every thread).
#pragma once

#include <string>

namespace openloop::net {

/// strerror(err) as a string of its own (strerror_r), e.g. "Connection refused"; "errno N" for an unknown
/// value. Thread-safe; allocates the string, so not for the hot path (callers keep one message per kind).
std::string errno_text(int err);

}  // namespace openloop::net
