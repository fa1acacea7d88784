// Writes what the Java interop check compares: an .hlog from our writer, our .hgrm for each series as
// Java's HistogramLogProcessor would print it, and per-histogram summaries for the reference to reproduce.
#include <zlib.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/rng.h"
#include "hdr/codec.h"
#include "hdr/interval_log.h"
#include "hdr/percentile_output.h"

namespace {

using openloop::Rng;
using namespace openloop::hdr;
using namespace std::chrono_literals;

constexpr double k_percentiles[] = {0, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999, 100};
const auto k_start = std::chrono::system_clock::time_point(std::chrono::milliseconds(1700000000123));

// Lognormal nanosecond latency: median `median_ns`, shape sigma (Box–Muller from the fixed-seed rng).
std::int64_t lognormal(Rng& rng, double median_ns, double sigma) {
  const double z =
      std::sqrt(-2.0 * std::log(rng.uniform_open0())) * std::cos(6.283185307179586 * rng.uniform01());
  return static_cast<std::int64_t>(median_ns * std::exp(sigma * z));
}

std::uint64_t bits(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// One line per histogram: label, then what InteropCheck.java prints for the same bytes.
std::string summary(const std::string& label, const Histogram& h) {
  std::string line =
      fmt::format("{} total={} max={} min={} mean={:016x} sd={:016x} htv={}", label, h.total_count(), h.max(),
                  h.min(), bits(h.mean()), bits(h.stddev()), h.highest_trackable_value());
  for (double p : k_percentiles) line += fmt::format(" p{}={}", p, h.value_at_percentile(p));
  return line + " reencoded=" + to_compressed_base64(h) + "\n";
}

void put(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// Legacy fixed-width encodings (8-byte words), as HdrHistogram 2.0 wrote them: V1 up to the max's index,
// V0 the whole counts array; `compressed` wraps them in the matching zlib form.
std::vector<std::uint8_t> legacy(const Histogram& h, bool v0, bool compressed) {
  std::vector<std::uint8_t> payload;
  const std::int32_t n = v0 ? h.counts_length() : h.counts_index_for(h.raw_max()) + 1;
  for (std::int32_t i = 0; i < n; ++i) put(payload, static_cast<std::uint64_t>(h.count_at_index(i)), 8);
  std::vector<std::uint8_t> plain;
  if (v0) {
    put(plain, 0x1c849388u, 4);
    put(plain, static_cast<std::uint64_t>(h.significant_digits()), 4);
    put(plain, static_cast<std::uint64_t>(h.lowest_discernible_value()), 8);
    put(plain, static_cast<std::uint64_t>(h.highest_trackable_value()), 8);
    put(plain, static_cast<std::uint64_t>(h.total_count()), 8);
  } else {
    put(plain, 0x1c849381u, 4);
    put(plain, payload.size(), 4);
    put(plain, 0, 4);
    put(plain, static_cast<std::uint64_t>(h.significant_digits()), 4);
    put(plain, static_cast<std::uint64_t>(h.lowest_discernible_value()), 8);
    put(plain, static_cast<std::uint64_t>(h.highest_trackable_value()), 8);
    put(plain, 0x3ff0000000000000ULL, 8);
  }
  plain.insert(plain.end(), payload.begin(), payload.end());
  if (!compressed) return plain;
  uLongf size = compressBound(static_cast<uLong>(plain.size()));
  std::vector<std::uint8_t> out;
  put(out, v0 ? 0x1c849389u : 0x1c849382u, 4);
  put(out, 0, 4);
  out.resize(8 + size);
  compress2(out.data() + 8, &size, plain.data(), static_cast<uLong>(plain.size()), 9);
  out.resize(8 + size);
  for (int b = 0; b < 4; ++b)
    out[4 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(size >> (24 - 8 * b));
  return out;
}

struct Series {
  std::string name;  // file-name part
  std::string tag;   // empty: untagged
  double ratio;      // -outputValueUnitRatio
  bool csv;
  std::vector<Histogram> intervals;
};

std::vector<Series> make_series() {
  Rng rng(20240611);
  std::vector<Series> all;

  Series plain{"untagged", "", 1e6, false, {}};
  for (int k = 0; k < 30; ++k) {
    Histogram h(1, 3600000000000, 3);
    for (int i = 0; i < 5000; ++i) h.record(lognormal(rng, 250000.0, 0.7));
    if (k >= 10 && k < 13) h.record_with_expected_interval(1500000000 - k * 1000003, 200000);  // a stall
    plain.intervals.push_back(std::move(h));
  }
  all.push_back(std::move(plain));

  Series growing{"auto", "auto", 1e6, true, {}};
  for (int k = 0; k < 12; ++k) {
    Histogram h = Histogram::auto_resizing(3);
    const int n = k == 4 ? 0 : 3000;  // one empty interval
    for (int i = 0; i < n; ++i) h.record(lognormal(rng, 1000.0 * std::pow(3.0, k), 1.1));
    growing.intervals.push_back(std::move(h));
  }
  all.push_back(std::move(growing));

  Series coarse{"d2", "d2", 1000.0, false, {}};
  for (int k = 0; k < 8; ++k) {
    Histogram h(1000, 100000000000, 2);
    for (int i = 0; i < 4000; ++i) h.record(lognormal(rng, 40000.0, 2.0));
    coarse.intervals.push_back(std::move(h));
  }
  all.push_back(std::move(coarse));

  Series fine{"d5", "d5", 1.0, false, {}};
  for (int k = 0; k < 4; ++k) {
    Histogram h(1, 10000000, 5);
    for (int i = 0; i < 4000; ++i) h.record(std::min<std::int64_t>(lognormal(rng, 20000.0, 1.5), 10000000));
    fine.intervals.push_back(std::move(h));
  }
  all.push_back(std::move(fine));
  return all;
}

bool write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hdr_interop_gen OUTPUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<Series> series = make_series();

  std::ostringstream hlog;
  IntervalLogWriter writer(hlog);
  writer.write_header(k_start);
  writer.write_comment("openloop hdr interop data");
  for (const Series& s : series) {
    for (std::size_t k = 0; k < s.intervals.size(); ++k) {
      const auto start = std::chrono::milliseconds(1000 * static_cast<std::int64_t>(k) + 7);
      if (!writer.write_interval(start, 1000ms, s.intervals[k], s.tag)) return 1;
    }
  }
  if (!write_file(dir + "/data.hlog", hlog.str())) return 1;

  // Read our own log back and accumulate as HistogramLogProcessor does: a reset copy of the first
  // interval's layout, auto-resizing, with every interval of the tag added in order.
  auto log = parse_interval_log(hlog.str(), "data.hlog");
  if (!log) {
    std::fprintf(stderr, "%s\n", log.error().message.c_str());
    return 1;
  }
  std::string runs;
  std::string summaries_in;
  std::string summaries_expected;
  for (const Series& s : series) {
    std::optional<Histogram> accumulated;
    std::size_t k = 0;
    for (const IntervalLogEntry& e : log->intervals) {
      if (e.tag != s.tag) continue;
      if (!accumulated) {
        accumulated = e.histogram;
        accumulated->reset();
        accumulated->set_auto_resize(true);
      }
      accumulated->add(e.histogram);
      const std::string label = fmt::format("{}-{}", s.name, k++);
      summaries_in += label + " " + to_compressed_base64(e.histogram) + "\n";
      summaries_expected += summary(label, e.histogram);
    }
    std::ostringstream start_line;
    IntervalLogWriter(start_line).write_start_time(k_start);
    const std::string hgrm =
        start_line.str() +
        percentile_distribution(*accumulated, {.value_unit_scaling_ratio = s.ratio, .csv = s.csv});
    if (!write_file(dir + "/expected_" + s.name + ".hgrm", hgrm)) return 1;
    runs += fmt::format("{}|{}|{:.1f}|{}\n", s.name, s.tag, s.ratio, s.csv ? "-csv" : "");
    summaries_in += s.name + "-accumulated " + to_compressed_base64(*accumulated) + "\n";
    summaries_expected += summary(s.name + "-accumulated", *accumulated);
  }

  // Legacy encodings of a varied histogram, decoded by the reference.
  const Histogram& sample = series[0].intervals[11];
  for (const bool v0 : {false, true}) {
    for (const bool compressed : {false, true}) {
      const auto bytes = legacy(sample, v0, compressed);
      const std::string label = fmt::format("{}-{}", v0 ? "v0" : "v1", compressed ? "compressed" : "plain");
      auto ours = decode(bytes.data(), bytes.size());
      if (!ours) {
        std::fprintf(stderr, "%s: %s\n", label.c_str(), ours.error().message.c_str());
        return 1;
      }
      summaries_in += label + " " + base64_encode(bytes.data(), bytes.size()) + "\n";
      summaries_expected += summary(label, *ours);
    }
  }
  if (!write_file(dir + "/runs.txt", runs) || !write_file(dir + "/summary_input.txt", summaries_in) ||
      !write_file(dir + "/expected_summary.txt", summaries_expected)) {
    return 1;
  }
  return 0;
}
