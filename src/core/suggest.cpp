#include "core/suggest.h"

#include <algorithm>
#include <vector>

namespace openloop {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme: the swap of neighbours looks two rows back.
  std::vector<std::size_t> two_back(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], two_back[j - 2] + 1);
    }
    std::swap(two_back, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> closest_name(std::string_view typed, std::span<const std::string> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    std::size_t d = edit_distance(typed, c);
    const bool near = d <= 2 && 3 * d <= c.size();
    // A prefix counts as one edit: what was typed is the start of the name.
    const std::size_t letters = typed.find_first_not_of('-') == std::string_view::npos
                                    ? 0
                                    : typed.size() - typed.find_first_not_of('-');
    const bool prefix = letters >= 3 && c.size() > typed.size() && c.compare(0, typed.size(), typed) == 0;
    if (prefix) d = 1;
    if (!near && !prefix) continue;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace openloop
