// Tests for grpc-timeout's value: milliseconds while they fit in 8 digits, then coarser units, rounded up.
#include "core/grpc_timeout.h"

#include <gtest/gtest.h>

namespace openloop {
namespace {

void expect(std::int64_t ms, std::int64_t value, char unit) {
  const GrpcTimeout t = grpc_timeout_ms(ms);
  EXPECT_EQ(t.value, value) << ms << " ms";
  EXPECT_EQ(t.unit, unit) << ms << " ms";
}

TEST(GrpcTimeout, MillisecondsWhileTheyFitInEightDigitsThenTheFirstCoarserUnitRoundedUp) {
  expect(250, 250, 'm');
  expect(99'999'999, 99'999'999, 'm');  // 27.7 h: the last in milliseconds
  expect(100'000'000, 100'000, 'S');
  expect(100'000'001, 100'001, 'S');  // rounded up: never a shorter deadline than the client keeps
  expect(99'999'999'000, 99'999'999, 'S');
  expect(99'999'999'001, 1'666'667, 'M');
  expect(INT64_MAX, 99'999'999, 'H');  // beyond what 8 digits of hours say: the most they do
  expect(0, 0, 'm');
}

}  // namespace
}  // namespace openloop
