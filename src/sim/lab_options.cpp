// Splitting a --lab string into the lab's flags and applying each through the lab's own settings table.
#include "sim/lab_options.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "lab/config_fields.h"

namespace openloop::sim {

Result<lab::LabConfig> parse_lab_options(std::string_view text, std::string_view what) {
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
      ++i;
      continue;
    }
    const std::size_t end = text.find_first_of(" \t\n", i);
    words.push_back(text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
    i = end == std::string_view::npos ? text.size() : end;
  }
  lab::LabConfig cfg;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (!word.starts_with("--") || word.size() == 2) {
      return usage_error(
          fmt::format("{}: \"{}\" is not a lab option; use the flags of `openloop lab`, e.g. "
                      "'--workers 4 --service exp:10ms'",
                      what, word));
    }
    const std::size_t eq = word.find('=');
    const std::string_view name =
        word.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2);
    const lab::SettingInfo* info = lab::find_setting(name);
    if (info == nullptr) {
      return usage_error(fmt::format("{}: unknown lab option \"--{}\"; accepted: {}", what, name,
                                     lab::setting_names(false)));
    }
    std::string_view value;
    if (eq != std::string_view::npos) {
      value = word.substr(eq + 1);
    } else if (info->flag) {
      value = "true";
    } else if (i + 1 < words.size()) {
      value = words[++i];
    } else {
      return usage_error(fmt::format("{}: --{} needs a value ({})", what, name, info->value));
    }
    const std::string flag = fmt::format("{} --{}", what, name);
    OPENLOOP_TRY_VOID(lab::apply_setting(cfg, name, value, flag));
  }
  if (cfg.model.burn) {
    return usage_error(
        fmt::format("{}: --burn spends real CPU for the service time; a simulated service takes "
                    "virtual time (leave --burn out)",
                    what));
  }
  return cfg;
}

}  // namespace openloop::sim
