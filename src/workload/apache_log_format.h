// Apache access logs as traces: a LogFormat in Apache's syntax (%h %t "%r" ...) translated into the nginx
// variable syntax, so one matcher (workload/nginx_log_format.h) and one line parser (workload/nginx_trace.h)
// read both servers' logs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// Apache's predefined formats.
inline constexpr std::string_view k_apache_common = R"(%h %l %u %t "%r" %>s %b)";
inline constexpr std::string_view k_apache_combined =
    R"(%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i")";

/// `format` (Apache's LogFormat text) in nginx's variable syntax. What is read:
///  - time: %t ("[10/Oct/2000:13:55:36 -0700]": whole seconds, the request's START, spread within the second
///  by
///    the seed), %{msec}t / %{begin:msec}t / %{usec}t (the start, precise), %{end:msec}t / %{end:usec}t (the
///    end: start = end − %D, %{ms}T or %T when logged), %{sec}t;
///  - the request: %r, or %m with %U and %q; headers: %{NAME}i; %>s / %s the status, %b / %B the size;
///  - %h / %a the session. Other directives (%l, %u, %v, %{NAME}o, ...) are read over.
/// Modifiers (%>s, %<s, %400,501{...}i, %!200r) are accepted. Errors (usage), naming `what` and the column: a
/// '%' at the end, an unknown directive, an unclosed "%{", a %{...}t with a strftime pattern (only msec,
/// usec, sec with begin: or end: are read), a literal '$' (nginx's syntax would read it as a variable).
Result<std::string> apache_to_nginx_format(std::string_view format, std::string_view what);

/// The line parser for an Apache log in `format` (empty: "combined", each line that does not match it read
/// as "common"), spreading one-second stamps by `seed`. Errors (usage): those of apache_to_nginx_format, a
/// format with no time or no request (naming `what` and what to log).
Result<std::unique_ptr<TraceLineParser>> apache_trace_parser(std::string_view format, std::uint64_t seed,
                                                             std::string_view what);

}  // namespace openloop::workload
