// The .hgrm percentile spectrum and Java's %f rounding, byte for byte against the reference's output.
#include "hdr/percentile_output.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "hdr/java_format.h"

namespace openloop::hdr {
namespace {

constexpr std::int64_t k_hour_ns = 3600000000000;

Histogram one_to_ten() {
  Histogram h(1, k_hour_ns, 3);
  for (int v = 1; v <= 10; ++v) h.record(v);
  return h;
}

Histogram stall() {
  Histogram h(1, 3600000000, 3);
  h.record(1000, 10000);
  h.record(100000000);
  return h;
}

TEST(JavaFixed, RoundsShortestDigitsHalfUp) {
  EXPECT_EQ(java_fixed(0.0045, 3), "0.005");  // C's printf gives 0.004
  EXPECT_EQ(java_fixed(9.9995, 3), "10.000");
  EXPECT_EQ(java_fixed(0.125, 2), "0.13");
  EXPECT_EQ(java_fixed(2.675, 2), "2.68");
  EXPECT_EQ(java_fixed(0.5, 0), "1");
  EXPECT_EQ(java_fixed(2.5, 0), "3");
  EXPECT_EQ(java_fixed(-1.5, 0), "-2");
  EXPECT_EQ(java_fixed(123456789.0125, 3), "123456789.013");
  EXPECT_EQ(java_fixed(0.0005, 3), "0.001");
  EXPECT_EQ(java_fixed(0.00049999999999999, 3), "0.000");
  EXPECT_EQ(java_fixed(0.00049999999999999, 12), "0.000500000000");
  EXPECT_EQ(java_fixed(99.99999999, 2), "100.00");
}

TEST(JavaFixed, PadsAndPrintsSpecialValuesAsJava) {
  EXPECT_EQ(java_fixed(0.0045, 12, 2), "0.004500000000");
  EXPECT_EQ(java_fixed(1.25e-5, 12, 2), "0.000012500000");
  EXPECT_EQ(java_fixed(0.125, 2, 14), "          0.13");
  EXPECT_EQ(java_fixed(-0.0, 3), "-0.000");
  EXPECT_EQ(java_fixed(1e20, 3), "100000000000000000000.000");
  EXPECT_EQ(java_fixed(1e-320, 3), "0.000");
  EXPECT_EQ(java_fixed(1e7, 2, 14), "   10000000.00");
  EXPECT_EQ(java_fixed(std::nan(""), 3, 14), "           NaN");
  EXPECT_EQ(java_fixed(std::numeric_limits<double>::infinity(), 2), "Infinity");
  EXPECT_EQ(java_fixed(std::numeric_limits<double>::max(), 3),
            "17976931348623157" + std::string(292, '0') + ".000");
  EXPECT_EQ(java_int(42, 10), "        42");
}

TEST(PercentileOutput, OneToTenMatchesJavaByteForByte) {
  const std::string expected =
      "       Value     Percentile TotalCount 1/(1-Percentile)\n"
      "\n"
      "       1.000 0.000000000000          1           1.00\n"
      "       1.000 0.100000000000          1           1.11\n"
      "       2.000 0.200000000000          2           1.25\n"
      "       3.000 0.300000000000          3           1.43\n"
      "       4.000 0.400000000000          4           1.67\n"
      "       5.000 0.500000000000          5           2.00\n"
      "       6.000 0.550000000000          6           2.22\n"
      "       6.000 0.600000000000          6           2.50\n"
      "       7.000 0.650000000000          7           2.86\n"
      "       7.000 0.700000000000          7           3.33\n"
      "       8.000 0.750000000000          8           4.00\n"
      "       8.000 0.775000000000          8           4.44\n"
      "       8.000 0.800000000000          8           5.00\n"
      "       9.000 0.825000000000          9           5.71\n"
      "       9.000 0.850000000000          9           6.67\n"
      "       9.000 0.875000000000          9           8.00\n"
      "       9.000 0.887500000000          9           8.89\n"
      "       9.000 0.900000000000          9          10.00\n"
      "      10.000 0.912500000000         10          11.43\n"
      "      10.000 1.000000000000         10\n"
      "#[Mean    =        5.500, StdDeviation   =        2.872]\n"
      "#[Max     =       10.000, Total count    =           10]\n"
      "#[Buckets =           32, SubBuckets     =         2048]\n";
  EXPECT_EQ(percentile_distribution(one_to_ten()), expected);
}

TEST(PercentileOutput, CsvFormEndsWithInfinityAndHasNoFooter) {
  const std::string out = percentile_distribution(one_to_ten(), {.csv = true});
  EXPECT_TRUE(
      out.starts_with("\"Value\",\"Percentile\",\"TotalCount\",\"1/(1-Percentile)\"\n"
                      "1.000,0.000000000000,1,1.00\n"
                      "1.000,0.100000000000,1,1.11\n"));
  EXPECT_TRUE(out.ends_with("10.000,0.912500000000,10,11.43\n10.000,1.000000000000,10,Infinity\n")) << out;
}

TEST(PercentileOutput, EmptyHistogramPrintsHeaderAndZeroFooter) {
  EXPECT_EQ(percentile_distribution(Histogram(1, k_hour_ns, 3)),
            "       Value     Percentile TotalCount 1/(1-Percentile)\n"
            "\n"
            "#[Mean    =        0.000, StdDeviation   =        0.000]\n"
            "#[Max     =        0.000, Total count    =            0]\n"
            "#[Buckets =           32, SubBuckets     =         2048]\n");
}

TEST(PercentileOutput, StallInMillisecondsWithOneTickPerHalf) {
  const std::string out =
      percentile_distribution(stall(), {.ticks_per_half_distance = 1, .value_unit_scaling_ratio = 1e6});
  EXPECT_TRUE(
      out.starts_with("       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
                      "       0.001 0.000000000000      10000           1.00\n"
                      "       0.001 0.500000000000      10000           2.00\n"
                      "       0.001 0.750000000000      10000           4.00\n"));
  EXPECT_TRUE(
      out.ends_with("       0.001 0.999877929688      10000        8192.00\n"
                    "     100.008 0.999938964844      10001       16384.00\n"
                    "     100.008 1.000000000000      10001\n"
                    "#[Mean    =        0.011, StdDeviation   =        1.000]\n"
                    "#[Max     =      100.008, Total count    =        10001]\n"
                    "#[Buckets =           22, SubBuckets     =         2048]\n"))
      << out;
}

TEST(PercentileOutput, StallInMicrosecondsReachesTheTailAtTheJavaLevel) {
  const std::string out = percentile_distribution(stall(), {.value_unit_scaling_ratio = 1000.0});
  EXPECT_TRUE(
      out.ends_with("       1.000 0.999890136719      10000        9102.22\n"
                    "  100007.935 0.999902343750      10001       10240.00\n"
                    "  100007.935 1.000000000000      10001\n"
                    "#[Mean    =       10.996, StdDeviation   =      999.642]\n"
                    "#[Max     =   100007.935, Total count    =        10001]\n"
                    "#[Buckets =           22, SubBuckets     =         2048]\n"))
      << out;
  EXPECT_EQ(percentile_spectrum(stall()).size(), 69u);  // Java prints 69 rows for this histogram
}

TEST(PercentileSpectrum, EmptyHistogramHasNoRows) {
  EXPECT_TRUE(percentile_spectrum(Histogram(1, 1000, 3)).empty());
}

TEST(PercentileSpectrum, LastRowIsAtOneHundredWithTheTotal) {
  const auto rows = percentile_spectrum(one_to_ten());
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_EQ(rows.back().percentile_level, 100.0);
  EXPECT_EQ(rows.back().total_count, 10);
  EXPECT_EQ(rows.back().value, 10);
  EXPECT_EQ(rows.front().percentile_level, 0.0);
}

}  // namespace
}  // namespace openloop::hdr
