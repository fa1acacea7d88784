// V2 serialization of histograms (plain and zlib-compressed) and base64, byte-identical to Java's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "hdr/histogram.h"

namespace openloop::hdr {

/// Uncompressed V2 encoding (cookie 0x1c849313): 40-byte big-endian header (current highest trackable
/// value, after any growth) and ZigZag-LEB128 counts up to the max's index, zero runs as negatives.
std::vector<std::uint8_t> encode_v2(const Histogram& h);
/// Compressed V2 (cookie 0x1c849314) with zlib level `level` in 0..9 (clamped; Java's log writer: 9,
/// direct encode: 6). Byte-identical to Java's encodeIntoCompressedByteBuffer at the same level.
std::vector<std::uint8_t> encode_v2_compressed(const Histogram& h, int level = 9);
/// Decodes plain or compressed V2, V1 (cookie base 0x1c849301 / compressed 0x1c849302, 2-, 4- or 8-byte
/// big-endian words) and V0 (0x1c849308 / 0x1c849309). The result is auto-resizing, as Java's decoder
/// leaves it. Any input is safe: memory is bounded by the layout the header declares (at most ~6.3M
/// counts for 5 digits over the whole int64 range) and inflation stops at what that layout can hold, so a
/// zlib bomb cannot grow it. Errors (ExitCode::usage) say what was wrong: cookie, truncation, layout,
/// counts beyond the layout, negative counts, total overflow, corrupt zlib.
Result<Histogram> decode(const std::uint8_t* data, std::size_t size);

/// Standard base64 (RFC 4648 alphabet) with '=' padding.
std::string base64_encode(const std::uint8_t* data, std::size_t size);
/// Accepts padded or unpadded input; errors (usage) name the first bad character and its position.
Result<std::vector<std::uint8_t>> base64_decode(std::string_view text);

/// Convenience: compressed V2 (level 9) as base64, "HISTFAAAA...", as an .hlog line carries it.
std::string to_compressed_base64(const Histogram& h);
/// base64_decode then decode (any encoding decode accepts).
Result<Histogram> from_compressed_base64(std::string_view text);

}  // namespace openloop::hdr
