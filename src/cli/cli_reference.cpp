// The command-line reference in markdown, walked from the registered subcommands and options
// (cli_reference.h).
#include "cli/cli_reference.h"

#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace openloop::cli {
namespace {

bool visible(const CLI::App& sub) {
  return !sub.get_name().empty() && !sub.get_group().empty();
}

std::string command_path(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent == nullptr ? app.get_name() : command_path(*parent) + " " + app.get_name();
}

// GitHub's anchor for a heading of plain words: lower case, spaces as hyphens.
std::string anchor(const std::string& heading) {
  std::string out;
  for (const char c : heading) out += c == ' ' ? '-' : static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return out;
}

std::string code(const std::string& text) {
  // A backtick inside would end the span early; none of our names or placeholders has one, so double them.
  return text.find('`') == std::string::npos ? fmt::format("`{}`", markdown_cell(text))
                                             : fmt::format("`` {} ``", markdown_cell(text));
}

// The value a flag takes, as --help prints it after the name (an option text, else the type name).
std::string value_of(const CLI::Option& opt) {
  if (!opt.get_option_text().empty()) return opt.get_option_text();
  if (opt.get_type_size() == 0 || opt.get_type_name().empty()) return {};
  std::string value = opt.get_type_name();
  if (opt.get_expected_max() == CLI::detail::expected_max_vector_size) value += " ...";
  return value;
}

std::string option_row(const CLI::Option& opt, bool positional) {
  const std::string name = positional ? opt.get_name(true, false) : opt.get_name(false, true);
  const std::string value = value_of(opt);
  const std::string& fallback = opt.get_default_str();
  std::string meaning = markdown_cell(opt.get_description());
  if (opt.get_required()) meaning += meaning.empty() ? "Required." : " (required)";
  return fmt::format("| {} | {} | {} | {} |\n", code(name), value.empty() ? "" : code(value),
                     fallback.empty() ? "" : code(fallback), meaning);
}

std::string option_table(const std::string& group, const std::vector<const CLI::Option*>& opts,
                         bool positional) {
  std::string out =
      fmt::format("**{}**\n\n| option | value | default | meaning |\n|---|---|---|---|\n", group);
  for (const CLI::Option* opt : opts) out += option_row(*opt, positional);
  return out + "\n";
}

// The footer as paragraphs: "Examples:" becomes a shell block, the others stay text.
std::string footer(const std::string& text) {
  std::string out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto end = rest.find("\n\n");
    std::string_view para = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 2);
    constexpr std::string_view k_examples = "Examples:\n";
    if (para.substr(0, k_examples.size()) == k_examples) {
      out += "Examples:\n\n```sh\n";
      para.remove_prefix(k_examples.size());
      while (!para.empty()) {
        const auto eol = para.find('\n');
        std::string_view line = para.substr(0, eol);
        para = eol == std::string_view::npos ? std::string_view{} : para.substr(eol + 1);
        while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        out += fmt::format("{}\n", line);
      }
      out += "```\n\n";
    } else {
      out += fmt::format("{}\n\n", para);
    }
  }
  return out;
}

std::string subcommand(const CLI::App& sub, const CLI::Formatter& formatter) {
  const std::string path = command_path(sub);
  std::string out = fmt::format("## {}\n\n{}\n\n```\n{}```\n\n", path, sub.get_description(),
                                formatter.make_usage(&sub, path));
  const auto positionals =
      sub.get_options([](const CLI::Option* o) { return !o->get_group().empty() && o->get_positional(); });
  if (!positionals.empty()) out += option_table("Positionals", positionals, true);
  for (const std::string& group : sub.get_groups()) {
    if (group.empty()) continue;
    const auto opts = sub.get_options([&](const CLI::Option* o) {
      return o->get_group() == group && o->nonpositional() && o != sub.get_help_ptr() &&
             o != sub.get_help_all_ptr();
    });
    if (!opts.empty()) out += option_table(group, opts, false);
  }
  const auto subs = sub.get_subcommands([](const CLI::App* s) { return visible(*s); });
  if (!subs.empty()) {
    out += "Subcommands:";
    for (const CLI::App* s : subs) out += fmt::format(" [{}](#{})", s->get_name(), anchor(command_path(*s)));
    out += "\n\n";
  }
  out += footer(sub.get_footer());
  for (const CLI::App* s : subs) out += subcommand(*s, formatter);
  return out;
}

void list_contents(const CLI::App& app, std::string& out, int depth) {
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* c) { return visible(*c); })) {
    const std::string path = command_path(*s);
    out += fmt::format("{:{}}- [{}](#{}): {}\n", "", depth * 2, path, anchor(path), s->get_description());
    list_contents(*s, out, depth + 1);
  }
}

}  // namespace

std::string markdown_cell(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string markdown_reference(const CLI::App& app) {
  const CLI::Formatter formatter;
  std::string out = fmt::format(
      "# Command-line reference\n\n"
      "<!-- Generated by `{0} help --markdown` from the option registrations `--help` prints. Do not edit: "
      "change the registration, then run `make cli-docs`. The test e2e.cli.docs fails when the two differ. "
      "-->\n\n"
      "Every subcommand's options as `{0} SUBCOMMAND --help` prints them, grouped the same way. The README "
      "and "
      "the topical documents in docs/ explain what the options are for; this page is the complete list.\n\n",
      app.get_name());
  list_contents(app, out, 0);
  out += "\n";
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* c) { return visible(*c); })) {
    out += subcommand(*s, formatter);
  }
  while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

}  // namespace openloop::cli
