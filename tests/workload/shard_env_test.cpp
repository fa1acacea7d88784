// Tests for shard detection: the flag and each engine's variables, precedence, agreement, malformed values.
#include "workload/shard_env.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::workload;

namespace {

std::string error_of(std::string_view flag, const Environment& env) {
  const auto r = detect_shard(flag, env);
  EXPECT_FALSE(r.has_value());
  if (r) return {};
  EXPECT_EQ(r.error().code, ExitCode::usage);
  return r.error().message;
}

void expect_shard(std::string_view flag, const Environment& env, unsigned index, unsigned count,
                  std::string_view source) {
  const auto r = detect_shard(flag, env);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ((*r)->index, index);
  EXPECT_EQ((*r)->count, count);
  EXPECT_EQ((*r)->source, source);
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(ShardDetection, NothingGivenIsUnsharded) {
  const auto r = detect_shard("", {});
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->has_value());
}

TEST(ShardDetection, EachSourceAlone) {
  expect_shard("2/5", {}, 2, 5, "--shard 2/5");
  expect_shard("", {{"OPENLOOP_SHARD", "1/3"}}, 1, 3, "OPENLOOP_SHARD=1/3");
  expect_shard("", {{"JOB_COMPLETION_INDEX", "3"}, {"OPENLOOP_SHARD_COUNT", "4"}}, 3, 4,
               "JOB_COMPLETION_INDEX=3 OPENLOOP_SHARD_COUNT=4");
  expect_shard("", {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "8"}}, 0, 8, "SLURM_PROCID=0 SLURM_NTASKS=8");
  expect_shard("", {{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_SIZE", "6"}}, 5, 6,
               "OMPI_COMM_WORLD_RANK=5 OMPI_COMM_WORLD_SIZE=6");
  expect_shard("", {{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}, 1, 2, "PMI_RANK=1 PMI_SIZE=2");
}

TEST(ShardDetection, AgreeingSourcesAreFineAndTheFirstIsNamed) {
  expect_shard("1/4", {{"OPENLOOP_SHARD", "1/4"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "4"}}, 1, 4,
               "--shard 1/4");
  expect_shard("", {{"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "3"}, {"PMI_RANK", "2"}, {"PMI_SIZE", "3"}}, 2, 3,
               "SLURM_PROCID=2 SLURM_NTASKS=3");
}

TEST(ShardDetection, DisagreeingSourcesAreRefusedNamingBoth) {
  const auto m = error_of("1/4", {{"OPENLOOP_SHARD", "2/4"}});
  EXPECT_TRUE(contains(m, "--shard 1/4")) << m;
  EXPECT_TRUE(contains(m, "OPENLOOP_SHARD=2/4")) << m;
  const auto k = error_of("", {{"JOB_COMPLETION_INDEX", "1"},
                               {"OPENLOOP_SHARD_COUNT", "4"},
                               {"OMPI_COMM_WORLD_RANK", "1"},
                               {"OMPI_COMM_WORLD_SIZE", "2"}});
  EXPECT_TRUE(contains(k, "JOB_COMPLETION_INDEX=1 OPENLOOP_SHARD_COUNT=4")) << k;
  EXPECT_TRUE(contains(k, "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2")) << k;
}

TEST(ShardDetection, MalformedValuesNameTheVariableAndWhatIsAccepted) {
  EXPECT_TRUE(contains(error_of("4", {}), "I/N"));
  EXPECT_TRUE(contains(error_of("-1/4", {}), "--shard"));
  EXPECT_TRUE(contains(error_of("3/3", {}), "0 to 2"));
  EXPECT_TRUE(contains(error_of("0/0", {}), "1 to"));
  EXPECT_TRUE(contains(error_of("", {{"OPENLOOP_SHARD", "a/b"}}), "OPENLOOP_SHARD"));
  const auto slurm = error_of("", {{"SLURM_PROCID", "x"}, {"SLURM_NTASKS", "4"}});
  EXPECT_TRUE(contains(slurm, "SLURM_PROCID")) << slurm;
  EXPECT_TRUE(contains(slurm, "non-negative integer")) << slurm;
  const auto size = error_of("", {{"PMI_RANK", "0"}, {"PMI_SIZE", "0"}});
  EXPECT_TRUE(contains(size, "PMI_SIZE")) << size;
  const auto rank = error_of("", {{"PMI_RANK", "4"}, {"PMI_SIZE", "4"}});
  EXPECT_TRUE(contains(rank, "PMI_RANK=4")) << rank;
  const auto count_alone = error_of("", {{"OPENLOOP_SHARD_COUNT", "4"}});
  EXPECT_TRUE(contains(count_alone, "JOB_COMPLETION_INDEX")) << count_alone;
}

TEST(ShardDetection, HalfAPairOrASingleTaskIsNotSharding) {
  // A Kubernetes Indexed Job without OPENLOOP_SHARD_COUNT, a lone SLURM_PROCID, a one-task MPI run.
  for (const Environment& env :
       {Environment{{"JOB_COMPLETION_INDEX", "2"}}, Environment{{"SLURM_PROCID", "0"}},
        Environment{{"PMI_RANK", "0"}, {"PMI_SIZE", "1"}}}) {
    const auto r = detect_shard("", env);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_FALSE(r->has_value());
  }
  // ...and so does not conflict with the flag.
  expect_shard("1/2", {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"}}, 1, 2, "--shard 1/2");
}
