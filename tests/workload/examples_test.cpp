// Every example plan in examples/ loads and validates (docs/scenarios.md is built from them).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "workload/scenario_file.h"
#include "workload_test_util.h"

using namespace openloop::workload;
using openloop::workload::test_util::render_http1;

namespace {

// The repository's examples/ folder (tests/CMakeLists.txt defines its path).
std::filesystem::path examples_dir() {
  return OPENLOOP_EXAMPLES_DIR;
}

std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(examples_dir())) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST(Examples, EveryExamplePlanLoadsAndDescribesItself) {
  const auto files = example_files();
  ASSERT_GE(files.size(), 4U) << examples_dir();
  for (const auto& file : files) {
    auto plan = load_plan_file(file.string());
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_FALSE(plan->scenarios.empty()) << file;
    EXPECT_NE(plan->describe().find(file.string()), std::string::npos) << file;
    // Every request of an example renders (its variables and files resolve) for a second worker too.
    RenderContext ctx(plan->variables, plan->requests.size(), plan->seed, 1, 2);
    std::string out;
    for (const auto& request : plan->requests) {
      render_http1(request, ctx, out);
      EXPECT_NE(out.find(" HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"), std::string::npos) << file << ": " << out;
    }
  }
}

TEST(Examples, ExamplesRunAgainstTheLabInSecondsNotMinutes) {
  // The lead's end-to-end test runs every example against the lab: keep each one short.
  for (const auto& file : example_files()) {
    auto plan = load_plan_file(file.string());
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_LE(plan->length(), std::chrono::seconds(15)) << file;
  }
}
