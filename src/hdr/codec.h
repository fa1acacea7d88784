// V2 serialization of histograms (plain and zlib-compressed) and base64, byte-identical to Java's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "hdr/histogram.h"

namespace openloop::hdr {

/// Uncompressed V2 encoding (cookie 0x1c849313).
std::vector<std::uint8_t> encode_v2(const Histogram& h);
/// Compressed V2 (cookie 0x1c849314) with zlib level `level` (Java's log writer: 9; direct encode: 6).
std::vector<std::uint8_t> encode_v2_compressed(const Histogram& h, int level = 9);
/// Decodes plain or compressed V2 (and V1/V0 cookies). Errors name what was wrong (exit code usage).
Result<Histogram> decode(const std::uint8_t* data, std::size_t size);

/// Standard base64 with padding.
std::string base64_encode(const std::uint8_t* data, std::size_t size);
Result<std::vector<std::uint8_t>> base64_decode(std::string_view text);

/// Convenience: compressed V2 (level 9) as base64, "HISTFAAAA...".
std::string to_compressed_base64(const Histogram& h);
Result<Histogram> from_compressed_base64(std::string_view text);

}  // namespace openloop::hdr
