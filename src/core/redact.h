// Keeping secrets out of every output: credential headers, the user info of URLs and their secret query
// parameters are shown redacted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace openloop {

/// What a redacted secret is replaced with.
inline constexpr std::string_view k_redacted = "[redacted]";

/// True for headers that carry credentials: Authorization, Proxy-Authorization, Cookie (any case).
bool is_credential_header(std::string_view name);

/// "Name: value" with the value replaced by k_redacted when Name is a credential header; other lines
/// unchanged (a line without ':' too).
std::string redact_header_line(std::string_view line);

/// True for query parameters that commonly carry secrets (any case): api_key, apikey, key, token,
/// access_token, password, secret, signature, sig.
bool is_secret_param(std::string_view name);

/// The URL (or a request target: "/x?a=b") with its user info ("user:password@" in the authority) and the
/// values of its secret query parameters (is_secret_param) replaced by k_redacted; other text unchanged.
/// "https://u:p@h/x?api_key=K&q=1" → "https://[redacted]@h/x?api_key=[redacted]&q=1".
std::string redact_url(std::string_view url);

/// What a command writes down redacted: the default secret query parameters (is_secret_param) and the names
/// given with --redact-param (any case). A value built once from the flags and carried with the plan to where
/// a target or a request's name is written; the default-constructed one redacts the defaults only.
class Redactor {
 public:
  Redactor() = default;
  /// `extra_params`: more query parameter names to redact (empty names are ignored).
  explicit Redactor(std::vector<std::string> extra_params);

  /// True for a default secret parameter or one of the extra names (any case).
  bool is_secret_param(std::string_view name) const;
  /// redact_url(), with the extra names redacted too.
  std::string url(std::string_view url) const;
  const std::vector<std::string>& extra_params() const { return m_extra; }

 private:
  std::vector<std::string> m_extra;
};

}  // namespace openloop
