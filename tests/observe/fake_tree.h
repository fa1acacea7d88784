// A fake /proc and /sys tree in a fresh temporary directory, removed when the test ends.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace openloop::observe {

class FakeTree {
 public:
  FakeTree() {
    char tmpl[] = "/tmp/openloop-observe-XXXXXX";
    m_root = ::mkdtemp(tmpl);
  }
  ~FakeTree() { std::filesystem::remove_all(m_root); }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;
  /// Writes `text` at `path` (absolute inside the tree), making its directories.
  void write(const std::string& path, const std::string& text) {
    const std::filesystem::path p = m_root + path;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  void mkdir(const std::string& path) { std::filesystem::create_directories(m_root + path); }
  void remove(const std::string& path) { std::filesystem::remove_all(m_root + path); }
  const std::string& root() const { return m_root; }

 private:
  std::string m_root;
};

}  // namespace openloop::observe
