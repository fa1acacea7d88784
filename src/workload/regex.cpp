// PCRE2 behind the Regex and RegexMatch types.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "workload/regex.h"

#include <pcre2.h>

#include <fmt/format.h>

namespace openloop::workload {

Result<Regex> Regex::compile(std::string_view pattern, std::string_view what) {
  int code = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* compiled =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), 0, &code, &offset, nullptr);
  if (compiled == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof message);
    return usage_error(
        fmt::format("{}: regex \"{}\", column {}: {}; use a PCRE2 (Perl-style) pattern such as "
                    "'id=(\\d+)'",
                    what, pattern, offset + 1, reinterpret_cast<const char*>(message)));
  }
  pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE);  // no JIT on this machine: the interpreter matches instead
  Regex r;
  r.m_code = std::shared_ptr<pcre2_code>(compiled, pcre2_code_free);
  r.m_pattern = std::string(pattern);
  pcre2_pattern_info(compiled, PCRE2_INFO_CAPTURECOUNT, &r.m_groups);
  return r;
}

bool Regex::find(std::string_view subject, std::size_t from, RegexMatch& match) const {
  if (from > subject.size()) return false;
  const int rc = pcre2_match(m_code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), from,
                             0, match.m_data.get(), nullptr);
  if (rc <= 0) return false;
  match.m_subject = subject;
  match.m_pairs = static_cast<std::uint32_t>(rc);
  return true;
}

RegexMatch::RegexMatch(std::uint32_t groups)
    : m_data(pcre2_match_data_create(groups + 1, nullptr), pcre2_match_data_free) {}

std::optional<std::string_view> RegexMatch::group(std::uint32_t g) const {
  if (g >= m_pairs) return std::nullopt;
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(m_data.get());
  if (ov[2 * g] == PCRE2_UNSET) return std::nullopt;
  return m_subject.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
}

std::size_t RegexMatch::end() const {
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(m_data.get());
  return ov[1] > ov[0] ? ov[1] : ov[1] + 1;
}

}  // namespace openloop::workload
