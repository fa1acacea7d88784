// The command-line reference (docs/cli.md) written from the same CLI11 registrations `--help` prints, so the
// two cannot drift: `openloop help --markdown` writes it, e2e.cli.docs compares it with the committed file.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace openloop::cli {

/// Markdown for every visible subcommand of `app` (and their own subcommands, depth first, in registration
/// order): description, usage, one table per option group (option, value, default, meaning), then the
/// footer's paragraphs, its "Examples:" paragraph as a shell block. Hidden subcommands and options (empty
/// group) and the help flags are left out. Deterministic: the same registrations give the same bytes.
std::string markdown_reference(const CLI::App& app);

/// `text` made safe for one cell of a markdown table: `|` escaped, line breaks as spaces.
std::string markdown_cell(const std::string& text);

}  // namespace openloop::cli
