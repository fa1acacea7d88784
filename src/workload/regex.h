// Regular expressions of flow captures and checks: PCRE2, compiled once at load time (with its JIT where the
// machine has one) and matched per response with per-worker match data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

struct pcre2_real_code_8;
struct pcre2_real_match_data_8;

namespace openloop::workload {

class RegexMatch;

/// A compiled pattern. Immutable; shared by every worker (matching is thread-safe with one RegexMatch per
/// thread).
class Regex {
 public:
  /// Compiles `pattern` (PCRE2 syntax, UTF-8 not assumed) and JIT-compiles it when the JIT is available.
  /// Errors (usage) begin with `what`, quote the pattern and give PCRE2's message and the 1-based column.
  static Result<Regex> compile(std::string_view pattern, std::string_view what);

  /// The number of capturing groups (group 0, the whole match, not counted).
  std::uint32_t groups() const { return m_groups; }
  const std::string& pattern() const { return m_pattern; }

  /// Searches `subject` from byte `from`: true when the pattern matches; `match` then holds the groups.
  /// Allocation-free; a match that errs (e.g. a match limit reached) counts as no match.
  bool find(std::string_view subject, std::size_t from, RegexMatch& match) const;

 private:
  std::shared_ptr<pcre2_real_code_8> m_code;
  std::string m_pattern;
  std::uint32_t m_groups = 0;
};

/// One thread's match data, sized for patterns of up to `groups` groups. Not thread-safe; allocates only in
/// its constructor.
class RegexMatch {
 public:
  explicit RegexMatch(std::uint32_t groups);
  /// Group `g` of the last successful find (0: the whole match), or nullopt when it did not take part.
  std::optional<std::string_view> group(std::uint32_t g) const;
  /// Where the whole last match ends (the next search starts there, or one byte on for an empty match).
  std::size_t end() const;

 private:
  friend class Regex;
  std::shared_ptr<pcre2_real_match_data_8> m_data;
  std::string_view m_subject;
  std::uint32_t m_pairs = 0;
};

}  // namespace openloop::workload
