// The pipeline every command's outputs go through: each output attempted, and one rendered from a long run's
// parked histograms that could not be read back refused (exit 4) instead of written with gaps.
#include "cli/run_pipeline.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace openloop::cli {
namespace {

// An outcome whose outputs read from one spill file: the file the pipeline watches (found as every outcome's,
// through spill_files()).
struct Parked {
  std::shared_ptr<results::SpillFile> file;
};
std::vector<std::shared_ptr<const results::SpillFile>> spill_files(const Parked& p) {
  return {p.file};
}

// What an output reads from a parked text, as IntervalSeries and EncodedHistogram do: a failure noted on the
// file.
std::string read_back(const results::SpillFile& file, std::int64_t offset, std::size_t size) {
  auto text = file.read(offset, size);
  if (!text) {
    file.note_failure(text.error().message);
    return "";
  }
  return *text;
}

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
  Pipeline<Parked> p;
  p.command = "openloop test";
  p.run = [spill](std::atomic<int>&) -> Result<Parked> { return Parked{spill}; };
  p.summary = [](const Parked&) { return std::string(); };
  p.exit_code = [](const Parked&) { return 0; };
  p.announce = false;
  // The first reads past what was written (a spill file cut short), the second reads what is there.
  p.outputs = {
      {"--json", (dir / "gaps.json").string(),
       [](const Parked& o) -> Result<std::string> { return "{" + read_back(*o.file, 5, 100) + "}"; }},
      {"--hlog", (dir / "whole.hlog").string(),
       [](const Parked& o) -> Result<std::string> { return read_back(*o.file, 0, 10); }}};
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
