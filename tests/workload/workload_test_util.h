// Helpers shared by the workload tests: a scratch folder for files the tests write, removed at the end; a
// template's request as HTTP/1.1 text.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "http/request_buffer.h"
#include "http/request_http1.h"
#include "workload/request_template.h"

namespace openloop::workload::test_util {

/// A fresh folder under the system temp folder, removed with its contents when the object dies.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_path = std::filesystem::temp_directory_path() /
             (std::string("openloop-workload-") + info->test_suite_name() + "-" + info->name());
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// Writes `content` to `name` inside the folder; returns the full path.
  std::string write(std::string_view name, std::string_view content) const {
    const auto file = m_path / name;
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }
  const std::filesystem::path& path() const { return m_path; }

 private:
  std::filesystem::path m_path;
};

/// Renders `t` (RequestTemplate::render) and writes its HTTP/1.1 form into `out`, as the codec would; returns
/// the key. Allocation-free once warm (the parts buffer is this thread's, reused).
inline std::string_view render_http1(const RequestTemplate& t, RenderContext& ctx, std::string& out) {
  thread_local http::RequestBuffer parts;
  const std::string_view key = t.render(ctx, parts);
  http::write_http1(parts.parts(), http::ExtraHeader{}, out);
  return key;
}

}  // namespace openloop::workload::test_util
