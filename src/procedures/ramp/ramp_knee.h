// Kneedle (Satopää, Albrecht, Irwin and Raghavan, 2011): where a curve's behaviour changes, for the ramp's
// knee.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace openloop::procedures {

/// The curve's shape between its first and last point: concave bends below its chord from above (goodput vs
/// offered: tracks, then flattens), convex bends from below (p99 vs offered: flat, then climbs).
enum class KneeShape { concave, convex };
/// Whether y tends to rise or fall with x.
enum class KneeDirection { increasing, decreasing };

/// The knee of the points (x[i], y[i]) by offline Kneedle with sensitivity `sensitivity` (S; 1 in the paper):
/// both axes are normalised to [0, 1]; the difference curve is each point's distance from the normalised
/// chord on the side the shape bends to (concave increasing: y − x; convex increasing: x − y; decreasing
/// curves mirror x); a local maximum of the difference curve is the knee once a later point falls below its
/// threshold (its value − S × the mean normalised x spacing) before the next local maximum. Returns the index
/// of the first knee found scanning by increasing x, or nullopt when there is none (fewer than 3 points, x or
/// y constant, no local maximum confirmed). Preconditions: x.size() == y.size(), x strictly increasing,
/// values finite.
std::optional<std::size_t> find_knee(std::span<const double> x, std::span<const double> y, KneeShape shape,
                                     KneeDirection direction, double sensitivity = 1.0);

}  // namespace openloop::procedures
