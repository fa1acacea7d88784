// What a trace record may hold before it is sent: a method that is a token, header names that are tokens and
// values on one line, a target without spaces or control characters (a trace is outside input: a value with
// CR LF would smuggle a second request onto the connection).
#pragma once

#include <string_view>

#include "core/error.h"
#include "http/request.h"

namespace openloop::workload {

/// True when `s` is a non-empty HTTP token (letters, digits and !#$%&'*+-.^_`|~).
bool is_http_token(std::string_view s);
/// Error (usage): a name that is not a token, a value with CR, LF or NUL; each names the header.
Result<void> check_trace_header(const http::Header& h);
/// Error (usage): a target holding a space, a control character or DEL; names the target.
Result<void> check_trace_target(std::string_view target);

}  // namespace openloop::workload
