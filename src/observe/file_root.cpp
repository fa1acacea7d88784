// Files under a root directory and the small parsers every /proc and /sys sampler shares.
#include "observe/file_root.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

namespace openloop::observe {

std::string FileRoot::path(std::string_view p) const {
  return m_root + std::string(p);
}

std::optional<std::string> FileRoot::read(std::string_view p) const {
  const std::string full = path(p);
  const int fd = ::open(full.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      ::close(fd);
      return std::nullopt;
    }
  }
  ::close(fd);
  return out;
}

std::vector<std::string> FileRoot::list(std::string_view dir) const {
  std::vector<std::string> names;
  const std::string full = path(dir);
  DIR* d = ::opendir(full.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(d);
  return names;
}

std::optional<std::size_t> FileRoot::count(std::string_view dir) const {
  const std::string full = path(dir);
  DIR* d = ::opendir(full.c_str());
  if (d == nullptr) return std::nullopt;
  std::size_t n = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") ++n;
  }
  ::closedir(d);
  return n;
}

namespace {

std::optional<double> parse_number(std::string_view token) {
  if (token.empty()) return std::nullopt;
  double v = 0;
  const auto r = std::from_chars(token.data(), token.data() + token.size(), v);
  if (r.ec != std::errc() || r.ptr != token.data() + token.size()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<double> numbers(std::string_view line) {
  std::vector<double> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\n') ++j;
    if (auto v = parse_number(line.substr(i, j - i))) out.push_back(*v);
    i = j;
  }
  return out;
}

std::optional<double> field_after(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with(key)) {
      const auto v = numbers(line.substr(key.size()));
      if (!v.empty()) return v.front();
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::optional<double> psi_total(std::string_view text, std::string_view kind) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with(kind)) {
      const std::size_t t = line.find("total=");
      if (t != std::string_view::npos) {
        std::string_view v = line.substr(t + 6);
        v = v.substr(0, v.find_first_of(" \t"));
        return parse_number(v);
      }
    }
    at = end + 1;
  }
  return std::nullopt;
}

unsigned cpu_list_size(std::string_view list) {
  unsigned n = 0;
  while (!list.empty() && (list.back() == '\n' || list.back() == ' ')) list.remove_suffix(1);
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t end = list.find(',', at);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view part = list.substr(at, end - at);
    const std::size_t dash = part.find('-');
    unsigned a = 0, b = 0;
    const auto ra =
        std::from_chars(part.data(), part.data() + (dash == std::string_view::npos ? part.size() : dash), a);
    if (ra.ec != std::errc()) return 0;
    if (dash == std::string_view::npos) {
      b = a;
    } else if (std::from_chars(part.data() + dash + 1, part.data() + part.size(), b).ec != std::errc() ||
               b < a) {
      return 0;
    }
    n += b - a + 1;
    at = end + 1;
  }
  return n;
}

}  // namespace openloop::observe
