// Atomic writes and the output-path check every command runs before it sends anything.
#include "core/atomic_file.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

using namespace openloop;

namespace {

// A fresh directory under /tmp, removed (with its files) at the end.
class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/openloop-atomic.XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    m_dir = pattern;
  }
  void TearDown() override { (void)std::system(("rm -rf '" + m_dir + "'").c_str()); }
  std::size_t entries() const {
    std::size_t n = 0;
    if (DIR* d = ::opendir(m_dir.c_str())) {
      while (const dirent* e = ::readdir(d)) n += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
      ::closedir(d);
    }
    return n;
  }
  static std::size_t open_descriptors() {
    std::size_t n = 0;
    if (DIR* d = ::opendir("/proc/self/fd")) {
      while (::readdir(d) != nullptr) ++n;
      ::closedir(d);
    }
    return n;
  }
  std::string m_dir;
};

}  // namespace

TEST_F(TempDir, WritesTheWholeFileAndLeavesNoTempFile) {
  const std::string path = m_dir + "/r.json";
  ASSERT_TRUE(write_file_atomically(path, "hello\n"));
  EXPECT_EQ(*read_file(path), "hello\n");
  EXPECT_EQ(entries(), 1U);
}

TEST_F(TempDir, AFailedWriteLeavesNoTempFileAndNoDescriptor) {
  const std::string path = m_dir + "/taken";
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((path + "/inside").c_str(), 0755), 0);  // a non-empty directory: rename fails
  const std::size_t before = open_descriptors();
  const auto r = write_file_atomically(path, "x");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::runtime);
  EXPECT_NE(r.error().message.find(path), std::string::npos) << r.error().message;
  EXPECT_EQ(open_descriptors(), before);
  EXPECT_EQ(entries(), 1U) << "only the directory, no *.tmp.PID";
}

TEST_F(TempDir, OutputPathCheckAcceptsAFileInAWritableDirectory) {
  EXPECT_TRUE(check_output_path(m_dir + "/new.json", "--json"));
  ASSERT_TRUE(write_file_atomically(m_dir + "/old.json", "x"));
  EXPECT_TRUE(check_output_path(m_dir + "/old.json", "--json")) << "an existing file is replaced";
  EXPECT_TRUE(check_output_path("relative-name.json", "--json")) << "the current directory";
}

TEST_F(TempDir, OutputPathCheckRefusesAMissingDirectoryADirectoryAndAnEmptyName) {
  const auto missing = check_output_path(m_dir + "/no/such/r.json", "--json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ExitCode::usage);
  EXPECT_NE(missing.error().message.find("--json"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("does not exist"), std::string::npos) << missing.error().message;
  const auto dir = check_output_path(m_dir, "--html");
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos) << dir.error().message;
  EXPECT_FALSE(check_output_path("", "--hlog"));
}

TEST_F(TempDir, OutputPathCheckRefusesADirectoryThatIsNotWritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes everywhere";
  const std::string ro = m_dir + "/ro";
  ASSERT_EQ(::mkdir(ro.c_str(), 0555), 0);
  const auto r = check_output_path(ro + "/r.json", "--json");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not writable"), std::string::npos) << r.error().message;
  ::chmod(ro.c_str(), 0755);
}
