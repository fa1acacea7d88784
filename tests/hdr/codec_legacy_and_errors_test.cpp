// V1/V0 decoding (vectors checked against the Debian jar) and decoding of bad, truncated or hostile input.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <string>

#include "core/rng.h"
#include "hdr/codec.h"
#include "hdr/hex.h"

namespace openloop::hdr {
namespace {

using test::from_hex;

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::vector<std::uint8_t> compress_with(std::uint32_t cookie, const std::vector<std::uint8_t>& plain) {
  uLongf size = compressBound(static_cast<uLong>(plain.size()));
  std::vector<std::uint8_t> z(size);
  compress2(z.data(), &size, plain.data(), static_cast<uLong>(plain.size()), 9);
  std::vector<std::uint8_t> out;
  put(out, cookie, 4);
  put(out, size, 4);
  out.insert(out.end(), z.begin(), z.begin() + static_cast<std::ptrdiff_t>(size));
  return out;
}

// Histogram(1, 100000, 3) holding 1×3, 5×2, 1500×1, 50000×7, as fixed-width big-endian words.
// Java 2.1.11 decodes each of these to total 13, max 50015, min 1, mean 27039.46153846154.
std::vector<std::uint8_t> legacy_words(int word_size, std::size_t length) {
  std::vector<std::uint64_t> counts(length, 0);
  counts[1] = 3;
  counts[5] = 2;
  counts[1500] = 1;
  counts[6682] = 7;  // index of 50000
  std::vector<std::uint8_t> out;
  for (std::uint64_t c : counts) put(out, c, word_size);
  return out;
}

std::vector<std::uint8_t> v1_plain(int word_size) {
  const auto payload = legacy_words(word_size, 6683);
  std::vector<std::uint8_t> out;
  put(out, 0x1c849301u | static_cast<std::uint32_t>(word_size << 4), 4);
  put(out, payload.size(), 4);
  put(out, 0, 4);
  put(out, 3, 4);
  put(out, 1, 8);
  put(out, 100000, 8);
  put(out, 0x3ff0000000000000ULL, 8);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

std::vector<std::uint8_t> v0_plain() {
  const auto payload = legacy_words(8, 8192);  // V0 writers stored the whole counts array
  std::vector<std::uint8_t> out;
  put(out, 0x1c849388u, 4);
  put(out, 3, 4);
  put(out, 1, 8);
  put(out, 100000, 8);
  put(out, 13, 8);  // total count, ignored by readers
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

void expect_legacy_values(const Result<Histogram>& h, const std::string& what) {
  ASSERT_TRUE(h) << what << ": " << h.error().message;
  EXPECT_EQ(h->total_count(), 13) << what;
  EXPECT_EQ(h->max(), 50015) << what;
  EXPECT_EQ(h->min(), 1) << what;
  EXPECT_EQ(h->mean(), 27039.46153846154) << what;
  EXPECT_EQ(h->stddev(), 24803.11365260227) << what;
  EXPECT_EQ(h->highest_trackable_value(), 100000) << what;
}

TEST(CodecLegacy, V1WithEveryWordSizeDecodesPlainAndCompressed) {
  for (int word : {2, 4, 8}) {
    const auto plain = v1_plain(word);
    expect_legacy_values(decode(plain.data(), plain.size()), "V1 plain word " + std::to_string(word));
    const auto z = compress_with(0x1c849302u | static_cast<std::uint32_t>(word << 4), plain);
    expect_legacy_values(decode(z.data(), z.size()), "V1 compressed word " + std::to_string(word));
  }
}

TEST(CodecLegacy, V0DecodesPlainAndCompressed) {
  const auto plain = v0_plain();
  expect_legacy_values(decode(plain.data(), plain.size()), "V0 plain");
  const auto z = compress_with(0x1c849389u, plain);
  expect_legacy_values(decode(z.data(), z.size()), "V0 compressed");
}

TEST(CodecLegacy, NegativeFixedWidthCountIsAnError) {
  auto bytes = v1_plain(2);
  bytes[40 + 2] = 0xff;  // index 1 becomes a negative short
  auto h = decode(bytes.data(), bytes.size());
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().message.find("negative count"), std::string::npos) << h.error().message;
}

void expect_error(const std::vector<std::uint8_t>& bytes, std::string_view needle) {
  auto h = decode(bytes.data(), bytes.size());
  ASSERT_FALSE(h) << "expected an error containing: " << needle;
  EXPECT_EQ(h.error().code, ExitCode::usage);
  EXPECT_NE(h.error().message.find(needle), std::string::npos) << h.error().message;
}

std::vector<std::uint8_t> v2_header(std::uint32_t payload_length, int digits, std::int64_t lowest,
                                    std::int64_t highest) {
  std::vector<std::uint8_t> out;
  put(out, 0x1c849313u, 4);
  put(out, payload_length, 4);
  put(out, 0, 4);
  put(out, static_cast<std::uint32_t>(digits), 4);
  put(out, static_cast<std::uint64_t>(lowest), 8);
  put(out, static_cast<std::uint64_t>(highest), 8);
  put(out, 0x3ff0000000000000ULL, 8);
  return out;
}

TEST(CodecErrors, ShortOrUnknownInputNamesTheProblem) {
  expect_error({}, "need at least 4");
  expect_error({0x1c, 0x84}, "need at least 4");
  expect_error(from_hex("deadbeef 00000000"), "unknown cookie 0xdeadbeef");
  expect_error(from_hex("1c849313 00000002 00000000"), "header truncated");
  expect_error(
      from_hex("1c849361 00000002 00000000 00000003 0000000000000001 0000000000000002 3ff0000000000000"),
      "word size 6");
}

TEST(CodecErrors, InvalidLayoutInHeader) {
  expect_error(v2_header(1, 9, 1, 1000), "invalid layout");
  expect_error(v2_header(1, 3, 0, 1000), "invalid layout");
  expect_error(v2_header(1, 3, 100, 150), "invalid layout");
}

TEST(CodecErrors, TruncatedPayloadAndCountsBeyondTheLayout) {
  auto truncated = v2_header(2, 3, 1, 2);
  truncated.push_back(0x53);  // one of two payload bytes
  expect_error(truncated, "payload truncated");

  auto inside_varint = v2_header(1, 3, 1, 2);
  inside_varint.push_back(0x80);  // continuation bit set, then the payload ends
  expect_error(inside_varint, "payload ends inside the count");

  auto beyond = v2_header(6, 3, 1, 2);  // layout of 2048 counts
  for (int b : {0xff, 0xff, 0x03, 0x02})
    beyond.push_back(static_cast<std::uint8_t>(b));  // run of 32768 zeros, then a 1
  beyond.push_back(0);
  beyond.push_back(0);
  expect_error(beyond, "beyond the layout");

  auto huge_run = v2_header(10, 3, 1, 2);
  const std::uint8_t run[] = {0xfd, 0xff, 0xff, 0xff, 0xff,
                              0xff, 0xff, 0xff, 0xff, 0x02};  // zigzag of -2^62-ish
  huge_run.insert(huge_run.end(), std::begin(run), std::end(run));
  expect_error(huge_run, "longer than 2^31");

  expect_error(v2_header(0x7fffffff, 3, 1, 2), "exceeds the");
}

TEST(CodecErrors, TotalCountOverflowIsAnError) {
  auto bytes = v2_header(18, 3, 1, 2);
  for (int k = 0; k < 2; ++k) {  // two counts of 2^62 + 2^62
    const std::uint8_t big[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    bytes.insert(bytes.end(), std::begin(big), std::end(big));
    bytes.back() = 0x80;  // 9th byte: bits 56..63 of the zigzag word → 2^63 → count 2^62
  }
  expect_error(bytes, "overflows");
}

TEST(CodecErrors, CompressedLengthAndCorruptStream) {
  Histogram h(1, 3600000000000, 3);
  h.record(12345);
  auto z = encode_v2_compressed(h);
  auto longer = z;
  longer[7] = static_cast<std::uint8_t>(longer[7] + 10);
  expect_error(longer, "compressed length");
  auto corrupt = z;
  corrupt[9] ^= 0x55;
  corrupt[12] ^= 0x55;
  auto result = decode(corrupt.data(), corrupt.size());
  EXPECT_FALSE(result);
  auto cut = z;
  cut.resize(20);
  cut[7] = 12;
  expect_error(cut, "");
}

TEST(CodecErrors, ZlibBombInflatesOnlyWhatTheLayoutAllows) {
  auto plain = v2_header(4, 3, 1, 2);
  plain.resize(plain.size() + (16u << 20), 0);  // 16 MiB of zero bytes behind a 4-byte payload
  const auto z = compress_with(0x1c849314u, plain);
  ASSERT_LT(z.size(), 200000u);
  auto decoded = decode(z.data(), z.size());
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->total_count(), 0);

  auto lying = v2_header(0x7ffffff0, 3, 1, 2);  // claims a payload far larger than 2048 counts can need
  lying.resize(lying.size() + (1u << 20), 0);
  const auto z2 = compress_with(0x1c849314u, lying);
  expect_error(z2, "exceeds the");
}

TEST(CodecErrors, EveryTruncationAndByteFlipIsHandled) {
  Histogram h(1, 3600000000000, 3);
  Rng rng(3);
  for (int i = 0; i < 2000; ++i) h.record(static_cast<std::int64_t>(rng.below(1u << 24)));
  for (const auto& bytes : {encode_v2(h), encode_v2_compressed(h), v1_plain(4)}) {
    for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 64) {
      (void)decode(bytes.data(), n);  // must return, value or error, without crashing
    }
    for (int trial = 0; trial < 3000; ++trial) {
      auto mutated = bytes;
      const std::size_t at = rng.below(std::min<std::size_t>(mutated.size(), 64 + 40));
      mutated[at] = static_cast<std::uint8_t>(rng.next());
      auto result = decode(mutated.data(), mutated.size());
      if (!result) {
        EXPECT_FALSE(result.error().message.empty());
      }
    }
  }
}

}  // namespace
}  // namespace openloop::hdr
