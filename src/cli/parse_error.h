// What the user reads when CLI11 refuses a command line: the subcommand named once, an unknown option with the
// registered name nearest to it ("did you mean"), an option of another subcommand named as such.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace openloop::cli {

/// The one-line message for a parse error of `argv` against `app` (the whole command line, subcommands
/// included), without a trailing newline. Help and version requests are not errors: don't pass them here.
std::string parse_error_message(CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv);

}  // namespace openloop::cli
