// Reading /proc and /sys through a root directory, so tests point the samplers at a tree of fixture files.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::observe {

/// Files under a root: "" is the real file system; "/tmp/fake" makes "/proc/1/stat" read
/// "/tmp/fake/proc/1/stat". Stateless and cheap to copy; safe from any thread.
class FileRoot {
 public:
  FileRoot() = default;
  explicit FileRoot(std::string root) : m_root(std::move(root)) {}
  /// The whole file (read until EOF: /proc files report size 0); nullopt when it cannot be opened or read.
  std::optional<std::string> read(std::string_view path) const;
  /// Names in a directory (without "." and ".."); empty when it cannot be opened.
  std::vector<std::string> list(std::string_view dir) const;
  /// How many entries a directory holds; nullopt when it cannot be opened.
  std::optional<std::size_t> count(std::string_view dir) const;
  /// The real path of `path` under the root.
  std::string path(std::string_view path) const;

 private:
  std::string m_root;
};

/// The value after `key` on the line that starts with it ("VmRSS:\t  1234 kB" → 1234); nullopt when absent.
std::optional<double> field_after(std::string_view text, std::string_view key);
/// `total=` of a PSI line ("some avg10=0.00 avg60=0.00 avg300=0.00 total=1234") of kind "some" or "full",
/// in microseconds; nullopt when absent.
std::optional<double> psi_total(std::string_view text, std::string_view kind = "some");
/// The numbers of a whitespace-separated line (tokens that are not numbers are skipped).
std::vector<double> numbers(std::string_view line);
/// "0-3,6" → 5 (CPUs in a kernel CPU list); 0 for an empty or malformed list.
unsigned cpu_list_size(std::string_view list);

}  // namespace openloop::observe
