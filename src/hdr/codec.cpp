// V2 encoding (plain and zlib), V2/V1/V0 decoding with every length and count checked, and base64.
#include "hdr/codec.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace openloop::hdr {

namespace {

constexpr std::int32_t k_v2_cookie = 0x1c849313;
constexpr std::int32_t k_v2_compressed_cookie = 0x1c849314;
// Cookie bases with the word-size nibble (bits 4..7) cleared, as Java's getCookieBase().
constexpr std::uint32_t k_v2_base = 0x1c849303;
constexpr std::uint32_t k_v1_base = 0x1c849301;
constexpr std::uint32_t k_v0_base = 0x1c849308;
constexpr std::uint32_t k_v2_compressed_base = 0x1c849304;
constexpr std::uint32_t k_v1_compressed_base = 0x1c849302;
constexpr std::uint32_t k_v0_compressed_base = 0x1c849309;
constexpr std::size_t k_header_size = 40;
constexpr std::size_t k_v0_header_size = 32;
constexpr int k_zigzag_word = 9;  // V2 words: ZigZag LEB128, up to 9 bytes

std::uint32_t cookie_base(std::uint32_t cookie) {
  return cookie & ~std::uint32_t{0xf0};
}

void put_be(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint64_t get_be(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

void put_zigzag(std::vector<std::uint8_t>& out, std::int64_t signed_value) {
  auto v = (static_cast<std::uint64_t>(signed_value) << 1) ^ static_cast<std::uint64_t>(signed_value >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((v >> 7) == 0) {
      out.push_back(static_cast<std::uint8_t>(v));
      return;
    }
    out.push_back(static_cast<std::uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));  // the 9th byte carries all 8 remaining bits
}

tl::unexpected<Error> bad(std::string message) {
  return usage_error("histogram encoding: " + std::move(message));
}

// The fixed header fields shared by V2/V1 (and V0, which lacks the first three).
struct Header {
  std::uint32_t cookie = 0;
  int word_size = 0;                 // 9 for V2's ZigZag LEB128; 2, 4 or 8 for V1/V0 fixed words
  std::int64_t payload_length = -1;  // bytes; -1 when the header does not say (V0)
  int digits = 0;
  std::int64_t lowest = 0;
  std::int64_t highest = 0;
};

Result<Header> parse_header(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return bad(fmt::format("{} bytes, need at least 4 for the cookie", size));
  Header h;
  h.cookie = static_cast<std::uint32_t>(get_be(data, 4));
  const std::uint32_t base = cookie_base(h.cookie);
  const bool v0 = base == k_v0_base;
  if (base != k_v2_base && base != k_v1_base && !v0) {
    return bad(
        fmt::format("unknown cookie 0x{:08x} (expected V2 0x1c849313 or 0x1c849314, V1 base 0x1c849301, "
                    "or V0 base 0x1c849308)",
                    h.cookie));
  }
  const std::size_t need = v0 ? k_v0_header_size : k_header_size;
  if (size < need) return bad(fmt::format("header truncated: {} bytes, need {}", size, need));
  h.word_size = base == k_v2_base ? k_zigzag_word : static_cast<int>(((h.cookie & 0xf0) >> 4) & 0xe);
  if (h.word_size != k_zigzag_word && h.word_size != 2 && h.word_size != 4 && h.word_size != 8) {
    return bad(
        fmt::format("cookie 0x{:08x} declares word size {} (V1/V0 accept 2, 4 or 8)", h.cookie, h.word_size));
  }
  if (v0) {
    h.digits = static_cast<std::int32_t>(get_be(data + 4, 4));
    h.lowest = static_cast<std::int64_t>(get_be(data + 8, 8));
    h.highest = static_cast<std::int64_t>(get_be(data + 16, 8));  // then an ignored total count
  } else {
    h.payload_length = static_cast<std::int32_t>(get_be(data + 4, 4));
    // normalizingIndexOffset (data + 8) only moves Java's physical storage; logical indices are unchanged.
    h.digits = static_cast<std::int32_t>(get_be(data + 12, 4));
    h.lowest = static_cast<std::int64_t>(get_be(data + 16, 8));
    h.highest = static_cast<std::int64_t>(get_be(data + 24, 8));
    if (h.payload_length < 0) return bad(fmt::format("negative payload length {}", h.payload_length));
  }
  if (!Histogram::valid_parameters(h.lowest, h.highest, h.digits)) {
    return bad(
        fmt::format("invalid layout: lowest {}, highest {}, digits {} (need lowest ≥ 1, highest ≥ "
                    "2·lowest, digits 1..5)",
                    h.lowest, h.highest, h.digits));
  }
  return h;
}

// Bytes of payload Java reads for this layout: never more than 8 bytes per count (its V0 capacity).
std::size_t payload_capacity(const Histogram& h, const Header& header) {
  const auto cap = static_cast<std::size_t>(h.counts_length()) * 8;
  if (header.payload_length < 0) {
    return static_cast<std::size_t>(h.counts_length()) * static_cast<std::size_t>(header.word_size);
  }
  return std::min(cap, static_cast<std::size_t>(header.payload_length));
}

// Reads one ZigZag LEB128 word (the 9th byte carries 8 bits); false when the payload ends inside it.
bool read_zigzag(const std::uint8_t*& p, const std::uint8_t* end, std::int64_t& value) {
  std::uint64_t raw = 0;
  for (int i = 0; i < 9; ++i) {
    if (p >= end) return false;
    const std::uint8_t byte = *p++;
    if (i == 8) {
      raw |= static_cast<std::uint64_t>(byte) << 56;
      break;
    }
    raw |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) break;
  }
  value = static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1);
  return true;
}

// Fills h from a payload of V2 words (count ≥ 0, or −N for N zeros) or fixed-width big-endian words.
Result<Histogram> fill_counts(Histogram h, const std::uint8_t* p, std::size_t length, int word_size) {
  const std::uint8_t* const begin = p;
  const std::uint8_t* const end = p + length;
  std::int64_t index = 0;
  std::int64_t total = 0;
  while (p < end) {
    const auto offset = static_cast<std::size_t>(p - begin);
    std::int64_t count = 0;
    if (word_size == k_zigzag_word) {
      if (!read_zigzag(p, end, count)) {
        return bad(fmt::format("payload ends inside the count at payload byte {}", offset));
      }
      if (count < -std::int64_t{std::numeric_limits<std::int32_t>::max()}) {
        return bad(
            fmt::format("zero-run word {} at payload byte {} is longer than 2^31 − 1 zeros", count, offset));
      }
      if (count < 0) {
        index -= count;  // a run of zeros: nothing to set
        continue;
      }
    } else {
      if (end - p < word_size)
        return bad(fmt::format("payload ends inside the count at payload byte {}", offset));
      const int unused_bits = 64 - 8 * word_size;  // sign-extend the big-endian word
      count = static_cast<std::int64_t>(get_be(p, word_size) << unused_bits) >> unused_bits;
      p += word_size;
      if (count < 0) return bad(fmt::format("negative count {} at payload byte {}", count, offset));
    }
    if (count > 0) {
      if (index >= h.counts_length()) {
        return bad(fmt::format(
            "count at index {} is beyond the layout's {} counts (lowest {}, highest {}, digits {})", index,
            h.counts_length(), h.lowest_discernible_value(), h.highest_trackable_value(),
            h.significant_digits()));
      }
      if (total > std::numeric_limits<std::int64_t>::max() - count) return bad("total count overflows int64");
      total += count;
      h.record(h.value_from_index(static_cast<std::int32_t>(index)), count);
    }
    ++index;
  }
  return h;
}

Histogram make_histogram(const Header& header) {
  Histogram h(header.lowest, header.highest, header.digits);
  h.set_auto_resize(true);  // as Java's decoder leaves it
  return h;
}

Result<Histogram> decode_plain(const std::uint8_t* data, std::size_t size) {
  const Header header = OPENLOOP_TRY(parse_header(data, size));
  Histogram h = make_histogram(header);
  const std::size_t header_size = header.payload_length < 0 ? k_v0_header_size : k_header_size;
  const std::size_t available = size - header_size;
  std::size_t length = payload_capacity(h, header);
  if (header.payload_length < 0) {
    length = std::min(length, available);  // V0 does not say; take what is there
  } else if (static_cast<std::size_t>(header.payload_length) > length) {
    return bad(fmt::format("payload length {} exceeds the {} bytes the layout can hold",
                           header.payload_length, length));
  }
  if (length > available) {
    return bad(fmt::format("payload truncated: header says {} bytes, {} present", length, available));
  }
  return fill_counts(std::move(h), data + header_size, length, header.word_size);
}

// Inflates into `out` until it holds `limit` bytes or the stream ends; `out` grows in steps so a
// small bomb cannot make us allocate the whole limit up front.
Result<void> inflate_some(z_stream& zs, std::vector<std::uint8_t>& out, std::size_t limit) {
  while (out.size() < limit) {
    const std::size_t before = out.size();
    const std::size_t grow = std::min(limit - before, std::max<std::size_t>(before, 4096));
    out.resize(before + grow);
    zs.next_out = out.data() + before;
    zs.avail_out = static_cast<uInt>(grow);
    const int rc = ::inflate(&zs, Z_NO_FLUSH);
    out.resize(before + (grow - zs.avail_out));
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && out.size() == before) break;  // input exhausted
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return bad(fmt::format("zlib stream is corrupt ({})", zs.msg != nullptr ? zs.msg : "inflate error"));
    }
  }
  return {};
}

Result<Histogram> decode_compressed(const std::uint8_t* data, std::size_t size, bool v0) {
  if (size < 8)
    return bad(fmt::format("compressed form truncated: {} bytes, need 8 for cookie and length", size));
  const auto compressed_length = static_cast<std::int32_t>(get_be(data + 4, 4));
  if (compressed_length < 0 || static_cast<std::size_t>(compressed_length) > size - 8) {
    return bad(fmt::format("compressed length {} but {} bytes follow the 8-byte prefix", compressed_length,
                           size - 8));
  }
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return runtime_error("histogram encoding: zlib inflateInit failed");
  struct Guard {
    z_stream* zs;
    ~Guard() { inflateEnd(zs); }
  } guard{&zs};
  zs.next_in = const_cast<Bytef*>(data + 8);  // zlib's API is not const-correct; it does not write input
  zs.avail_in = static_cast<uInt>(compressed_length);

  std::vector<std::uint8_t> buffer;
  const std::size_t header_size = v0 ? k_v0_header_size : k_header_size;
  if (auto r = inflate_some(zs, buffer, header_size); !r) return tl::unexpected(r.error());
  if (buffer.size() >= 4 &&
      (cookie_base(static_cast<std::uint32_t>(get_be(buffer.data(), 4))) == k_v0_base) != v0) {
    return bad("compressed cookie and inner cookie disagree on V0 versus V1/V2");
  }
  const Header header = OPENLOOP_TRY(parse_header(buffer.data(), buffer.size()));
  Histogram h = make_histogram(header);
  const std::size_t capacity = payload_capacity(h, header);
  if (header.payload_length > static_cast<std::int64_t>(capacity)) {
    return bad(fmt::format("payload length {} exceeds the {} bytes the layout can hold",
                           header.payload_length, capacity));
  }
  if (auto r = inflate_some(zs, buffer, header_size + capacity); !r) return tl::unexpected(r.error());
  const std::size_t inflated = buffer.size() - header_size;
  if (header.payload_length >= 0 && inflated < static_cast<std::size_t>(header.payload_length)) {
    return bad(
        fmt::format("compressed payload holds {} bytes, header says {}", inflated, header.payload_length));
  }
  const std::size_t length =
      header.payload_length >= 0 ? static_cast<std::size_t>(header.payload_length) : inflated;
  return fill_counts(std::move(h), buffer.data() + header_size, length, header.word_size);
}

}  // namespace

std::vector<std::uint8_t> encode_v2(const Histogram& h) {
  std::vector<std::uint8_t> out;
  const std::int32_t limit = h.counts_index_for(h.raw_max()) + 1;
  out.reserve(k_header_size + static_cast<std::size_t>(limit) + 8);
  put_be(out, static_cast<std::uint32_t>(k_v2_cookie), 4);
  put_be(out, 0, 4);  // payload length, patched below
  put_be(out, 0, 4);  // normalizingIndexOffset
  put_be(out, static_cast<std::uint32_t>(h.significant_digits()), 4);
  put_be(out, static_cast<std::uint64_t>(h.lowest_discernible_value()), 8);
  put_be(out, static_cast<std::uint64_t>(h.highest_trackable_value()), 8);
  double ratio = 1.0;
  std::uint64_t ratio_bits = 0;
  std::memcpy(&ratio_bits, &ratio, sizeof ratio_bits);
  put_be(out, ratio_bits, 8);
  std::int32_t i = 0;
  while (i < limit) {
    const std::int64_t count = h.count_at_index(i++);
    if (count != 0) {
      put_zigzag(out, count);
      continue;
    }
    std::int64_t zeros = 1;
    while (i < limit && h.count_at_index(i) == 0) {
      ++zeros;
      ++i;
    }
    put_zigzag(out, zeros > 1 ? -zeros : 0);
  }
  const auto payload = static_cast<std::uint32_t>(out.size() - k_header_size);
  for (int b = 0; b < 4; ++b)
    out[4 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(payload >> (8 * (3 - b)));
  return out;
}

std::vector<std::uint8_t> encode_v2_compressed(const Histogram& h, int level) {
  const std::vector<std::uint8_t> plain = encode_v2(h);
  uLongf bound = compressBound(static_cast<uLong>(plain.size()));
  std::vector<std::uint8_t> out(8 + bound);
  // compress2 only fails on a bad level or a short buffer; clamp the level and size by compressBound.
  compress2(out.data() + 8, &bound, plain.data(), static_cast<uLong>(plain.size()), std::clamp(level, 0, 9));
  out.resize(8 + bound);
  for (int b = 0; b < 4; ++b) {
    out[static_cast<std::size_t>(b)] =
        static_cast<std::uint8_t>(static_cast<std::uint32_t>(k_v2_compressed_cookie) >> (8 * (3 - b)));
    out[4 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(bound >> (8 * (3 - b)));
  }
  return out;
}

Result<Histogram> decode(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr || size < 4) return bad(fmt::format("{} bytes, need at least 4 for the cookie", size));
  const std::uint32_t base = cookie_base(static_cast<std::uint32_t>(get_be(data, 4)));
  if (base == k_v2_compressed_base || base == k_v1_compressed_base)
    return decode_compressed(data, size, false);
  if (base == k_v0_compressed_base) return decode_compressed(data, size, true);
  return decode_plain(data, size);
}

std::string to_compressed_base64(const Histogram& h) {
  const std::vector<std::uint8_t> bytes = encode_v2_compressed(h, 9);
  return base64_encode(bytes.data(), bytes.size());
}

Result<Histogram> from_compressed_base64(std::string_view text) {
  const std::vector<std::uint8_t> bytes = OPENLOOP_TRY(base64_decode(text));
  return decode(bytes.data(), bytes.size());
}

}  // namespace openloop::hdr
