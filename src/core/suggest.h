// "Did you mean": the registered name nearest to what a user typed, for flag and key typos.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace openloop {

/// Edits (insertions, deletions, substitutions, swaps of neighbours) between two strings: optimal string
/// alignment distance, so `--rtae` is one edit from `--rate`.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `typed`, when one is near enough to be what was meant: at most two edits and at
/// most a third of the candidate's length (so `--n` suggests nothing), or `typed` is a prefix of it of at
/// least three characters (`--dur` → `--duration`). Ties go to the first candidate. Nothing when none is near.
std::optional<std::string> closest_name(std::string_view typed, std::span<const std::string> candidates);

}  // namespace openloop
