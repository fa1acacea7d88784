#include "cli/parse_error.h"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/suggest.h"

namespace openloop::cli {
namespace {

CLI::App* subcommand_named(CLI::App& app, std::string_view name) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

bool has_name(const std::vector<std::string>& names, std::string_view name) {
  for (const std::string& n : names) {
    if (n == name) return true;
  }
  return false;
}

// The subcommands (as "run", "probe metastable") other than `skip` that register `name`.
void owners_of(CLI::App& app, const std::string& path, const CLI::App* skip, std::string_view name,
               std::vector<std::string>& owners) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    const std::string sub_path = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    if (sub != skip && has_name(option_names(*sub), name)) owners.push_back(sub_path);
    owners_of(*sub, sub_path, skip, name, owners);
  }
}

std::string joined_with_and(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " and " : ", ";
    out += words[i];
  }
  return out;
}

bool is_word_of(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || text[at - 1] == ' ';
    const std::size_t end = at + word.size();
    const bool ends = end == text.size() || text[end] == ' ' || text[end] == '=';
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

std::string parse_error_message(CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv) {
  // The subcommands named at the start of the line: `openloop probe metastable ...`.
  CLI::App* sub = &app;
  std::string path;
  int i = 1;
  for (; i < argc; ++i) {
    CLI::App* next = subcommand_named(*sub, argv[i]);
    if (!next) break;
    sub = next;
    path += (path.empty() ? "" : " ") + next->get_name();
  }
  const std::string who = path.empty() ? "openloop" : "openloop " + path;
  const std::string help = fmt::format("run `{} --help` for its options", who);
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    const std::vector<std::string> names = option_names(*sub);
    for (; i < argc; ++i) {
      const std::string_view token = argv[i];
      if (token == "--") break;
      if (token.size() < 3 || token.substr(0, 2) != "--") continue;
      const std::string name(token.substr(0, token.find('=')));
      if (has_name(names, name) || !is_word_of(error.what(), token)) continue;
      if (auto near = closest_name(name, names))
        return fmt::format("{}: unknown option {}; did you mean {}?", who, name, *near);
      std::vector<std::string> owners;
      owners_of(app, "", sub, name, owners);
      if (!owners.empty())
        return fmt::format("{}: {} is an option of {}, not of {}", who, name, joined_with_and(owners),
                           path.empty() ? "openloop" : path);
      return fmt::format("{}: unknown option {}; {}", who, name, help);
    }
  }
  return fmt::format("{}: {}; {}", who, error.what(), help);
}

}  // namespace openloop::cli
