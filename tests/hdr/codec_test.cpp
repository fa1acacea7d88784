// V2 encoding byte-for-byte against the reference's vectors, round trips, V1/V0 decoding and bad input.
#include "hdr/codec.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/rng.h"
#include "hdr/hex.h"

namespace openloop::hdr {
namespace {

using test::from_hex;
using test::to_hex;

constexpr std::int64_t k_hour_ns = 3600000000000;

std::string compressed_b64(const Histogram& h, int level) {
  const auto bytes = encode_v2_compressed(h, level);
  return base64_encode(bytes.data(), bytes.size());
}

TEST(CodecEncode, SingleValueUncompressedMatchesReferenceBytes) {
  Histogram h(1, 2, 3);
  h.record(42);
  EXPECT_EQ(to_hex(encode_v2(h)),
            to_hex(from_hex("1c849313 00000002 00000000 00000003 0000000000000001 0000000000000002 "
                            "3ff0000000000000 53 02")));
}

TEST(CodecEncode, SingleValueCompressedAtLevels9And6) {
  Histogram h(1, 2, 3);
  h.record(42);
  EXPECT_EQ(compressed_b64(h, 9), "HISTFAAAAB542pNpmSzMwMDAxAABzFCaEUoz2X+AMIKZAEARAtM=");
  EXPECT_EQ(compressed_b64(h, 6), "HISTFAAAAB54nJNpmSzMwMDAxAABzFCaEUoz2X+AMIKZAEARAtM=");
  EXPECT_EQ(to_compressed_base64(h), "HISTFAAAAB542pNpmSzMwMDAxAABzFCaEUoz2X+AMIKZAEARAtM=");
}

TEST(CodecEncode, OneAndThreeUseZeroRuns) {
  Histogram h(1, 2, 3);
  h.record(1);
  h.record(3);
  const auto bytes = encode_v2(h);
  EXPECT_EQ(to_hex({bytes.begin() + 40, bytes.end()}), "00020002");
  EXPECT_EQ(compressed_b64(h, 9), "HISTFAAAAB542pNpmSzMwMDAwgABzFCaEUoz2X+AsRiYAES3AoQ=");
}

TEST(CodecEncode, EmptyHistogramIsOneZeroByte) {
  const Histogram h(1, k_hour_ns, 3);
  const auto bytes = encode_v2(h);
  EXPECT_EQ(to_hex({bytes.begin() + 40, bytes.end()}), "00");
  EXPECT_EQ(to_compressed_base64(h), "HISTFAAAACF42pNpmSzMwMDAyAABzFAayGd2M9ixgMH+A1QEAFKmBEw=");
}

TEST(CodecEncode, AutoResizedHistogramWritesGrownRange) {
  Histogram h = Histogram::auto_resizing(3);
  h.record(1000000000);
  const auto bytes = encode_v2(h);
  EXPECT_EQ(to_hex({bytes.begin() + 24, bytes.begin() + 32}), "000000003fffffff");
  EXPECT_EQ(to_hex({bytes.begin() + 40, bytes.end()}), "e5cd0202");
  EXPECT_EQ(to_compressed_base64(h), "HISTFAAAACR42pNpmSzMwMDAwgABzFCaEUTY////3/4DRODpWSYmAHhcB3A=");
}

TEST(CodecEncode, TenThousandAtOneMicrosecondAndOneStall) {
  Histogram h(1, 3600000000, 3);
  h.record(1000, 10000);
  h.record(100000000);
  const auto bytes = encode_v2(h);
  EXPECT_EQ(to_hex({bytes.begin() + 40, bytes.end()}), "cf0fa09c0197880202");
  EXPECT_EQ(to_compressed_base64(h), "HISTFAAAACl42pNpmSzMwMDAyQABzFCaEURcm7yEwf4DROA8/4I5jNM7mJgAjtkHzg==");
}

TEST(CodecDecode, ReferenceVectorsDecodeToTheirValues) {
  auto one = from_compressed_base64("HISTFAAAAB542pNpmSzMwMDAxAABzFCaEUoz2X+AMIKZAEARAtM=");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->total_count(), 1);
  EXPECT_EQ(one->max(), 42);
  EXPECT_EQ(one->highest_trackable_value(), 2);
  EXPECT_TRUE(one->is_auto_resizing());

  auto stall = from_compressed_base64("HISTFAAAACl42pNpmSzMwMDAyQABzFCaEURcm7yEwf4DROA8/4I5jNM7mJgAjtkHzg==");
  ASSERT_TRUE(stall) << stall.error().message;
  EXPECT_EQ(stall->total_count(), 10001);
  EXPECT_EQ(stall->max(), 100007935);
  EXPECT_EQ(stall->min(), 1000);
  EXPECT_EQ(stall->mean(), 10996.417158284172);
  EXPECT_EQ(stall->value_at_percentile(99.999), 100007935);

  auto hlog_line = from_compressed_base64("HISTFAAAACh42pNpmSzMwMDAzgABzFCaEch0M9ixgMH+A0TgPD/T+3WMTAB5NQbS");
  ASSERT_TRUE(hlog_line) << hlog_line.error().message;
  EXPECT_EQ(hlog_line->total_count(), 2);
  EXPECT_EQ(hlog_line->max(), 2000895);  // 2.001 ms as the log line's max column says
}

TEST(CodecRoundTrip, EncodeThenDecodeGivesAnEqualHistogram) {
  Rng rng(7);
  for (int digits = 1; digits <= 5; ++digits) {
    Histogram h(1000, k_hour_ns, digits);
    for (int i = 0; i < 20000; ++i) {
      h.record(static_cast<std::int64_t>(rng.below(1u << 30)) >> rng.below(30),
               static_cast<std::int64_t>(1 + rng.below(3)));
    }
    for (int level : {0, 1, 6, 9}) {
      const auto bytes = encode_v2_compressed(h, level);
      auto decoded = decode(bytes.data(), bytes.size());
      ASSERT_TRUE(decoded) << decoded.error().message;
      EXPECT_TRUE(*decoded == h) << "digits " << digits << " level " << level;
    }
    const auto plain = encode_v2(h);
    auto decoded = decode(plain.data(), plain.size());
    ASSERT_TRUE(decoded) << decoded.error().message;
    EXPECT_TRUE(*decoded == h);
    EXPECT_EQ(encode_v2(*decoded), plain);
  }
}

TEST(CodecRoundTrip, HugeCountsUseNineByteWords) {
  Histogram h(1, 1000, 3);
  h.record(5, std::numeric_limits<std::int64_t>::max() - 1);
  const auto bytes = encode_v2(h);
  auto decoded = decode(bytes.data(), bytes.size());
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->count_at_value(5), std::numeric_limits<std::int64_t>::max() - 1);
}

TEST(Base64, EncodesWithPaddingAndDecodesBack) {
  const std::string text = "any carnal pleas";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(text.data());
    const std::string encoded = base64_encode(data, n);
    EXPECT_EQ(encoded.size() % 4, 0u);
    auto back = base64_decode(encoded);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(std::string(back->begin(), back->end()), text.substr(0, n));
  }
  EXPECT_EQ(base64_encode(reinterpret_cast<const std::uint8_t*>("Ma"), 2), "TWE=");
  EXPECT_EQ(base64_encode(reinterpret_cast<const std::uint8_t*>("M"), 1), "TQ==");
}

TEST(Base64, RejectsBadCharactersAndLengths) {
  EXPECT_FALSE(base64_decode("TW!u"));
  EXPECT_FALSE(base64_decode("TWFuT"));
  EXPECT_FALSE(base64_decode("TQ==TQ=="));
  EXPECT_FALSE(base64_decode("TQ==="));
  auto error = base64_decode("TW u");
  ASSERT_FALSE(error);
  EXPECT_NE(error.error().message.find("position 2"), std::string::npos) << error.error().message;
  EXPECT_EQ(error.error().code, ExitCode::usage);
}

}  // namespace
}  // namespace openloop::hdr
