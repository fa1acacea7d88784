// SHA-256 of bytes in memory, as lowercase hex (plan hashes, run ids, shard manifests).
#pragma once

#include <string>
#include <string_view>

namespace openloop {

/// The SHA-256 digest of `bytes` as 64 lowercase hex digits. Thread-safe; never fails (OpenSSL's one-shot
/// digest cannot fail on memory input).
std::string sha256_hex(std::string_view bytes);

}  // namespace openloop
