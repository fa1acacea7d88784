#include "audit/record_stream.h"

#include <gtest/gtest.h>

#include "audit/hey_reader.h"
#include "test_files.h"

namespace openloop::audit {
namespace {

const char* k_header =
    "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n";

std::vector<Record> read_all(const std::string& path) {
  RecordStream s(*HeyReader::open(path));
  std::vector<Record> out;
  Record r;
  while (*s.next(r)) out.push_back(r);
  return out;
}

TEST(RecordStream, SortsCompletionOrderIntoSendOrder) {
  // Written as responses completed: the long one sent first comes last.
  testing::TempFile f(std::string(k_header) +
                      "0.0010,0,0,0,0,0,200,0.0020\n"
                      "0.0010,0,0,0,0,0,200,0.0030\n"
                      "0.0500,0,0,0,0,0,200,0.0000\n");
  auto all = read_all(f.path());
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].start, Nanos(0));
  EXPECT_EQ(all[1].start, Nanos(2'000'000));
  EXPECT_EQ(all[2].start, Nanos(3'000'000));
}

TEST(RecordStream, ChainsEachSendToTheResponseThatEndedJustBefore) {
  // Two workers: A sends at 0 (10 ms), 10 ms, 20 ms; B at 1 ms (4 ms), 5 ms (4 ms), 9 ms.
  testing::TempFile f(std::string(k_header) +
                      "0.0100,0,0,0,0,0,200,0.0000\n"
                      "0.0040,0,0,0,0,0,200,0.0010\n"
                      "0.0040,0,0,0,0,0,200,0.0050\n"
                      "0.0040,0,0,0,0,0,200,0.0090\n"
                      "0.0100,0,0,0,0,0,200,0.0100\n"
                      "0.0100,0,0,0,0,0,200,0.0200\n");
  auto all = read_all(f.path());
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all[0].thread, "chain-0");
  EXPECT_EQ(all[1].thread, "chain-1");
  EXPECT_EQ(all[2].thread, "chain-1");  // 5 ms: B's first ended at 5 ms
  EXPECT_EQ(all[3].thread, "chain-1");
  EXPECT_EQ(all[4].thread, "chain-0");  // 10 ms: A's first ended at 10 ms
  EXPECT_EQ(all[5].thread, "chain-0");
}

}  // namespace
}  // namespace openloop::audit
