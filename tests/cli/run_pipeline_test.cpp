// The pipeline every command's outputs go through: each output attempted, and one rendered from a long run's
// parked histograms that could not be read back refused (exit 4) instead of written with gaps.
#include "cli/run_pipeline.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace openloop::cli {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RunPipeline, AnOutputWhoseParkedHistogramsCannotBeReadBackIsRefusedAndTheOthersWritten) {
  const auto dir = std::filesystem::temp_directory_path() / ("openloop-pipeline-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto file = results::SpillFile::open();
  ASSERT_TRUE(file) << file.error().message;
  const std::shared_ptr<results::SpillFile> spill = *file;
  ASSERT_TRUE(spill->append("HISTFAAAAB"));
  Pipeline<int> p;
  p.command = "openloop test";
  p.run = [](std::atomic<int>&) -> Result<int> { return 7; };
  p.summary = [](const int&) { return std::string(); };
  p.exit_code = [](const int&) { return 0; };
  p.announce = false;
  // The first reads past what was written (a spill file cut short), the second reads what is there.
  p.outputs = {{"--json", (dir / "gaps.json").string(),
                [spill](const int&) -> Result<std::string> { return "{" + spill->read(5, 100) + "}"; }},
               {"--hlog", (dir / "whole.hlog").string(),
                [spill](const int&) -> Result<std::string> { return spill->read(0, 10); }}};
  testing::internal::CaptureStderr();
  const int code = execute(p);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 4);
  EXPECT_FALSE(std::filesystem::exists(dir / "gaps.json"));
  EXPECT_NE(err.find("cannot read back the interval spill file"), std::string::npos) << err;
  EXPECT_EQ(read(dir / "whole.hlog"), "HISTFAAAAB");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace openloop::cli
