// Value generators for template variables: zipf(n, s), uniform(a, b), sequence(start), choice(...), csv(file,
// col).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "workload/zipf.h"

namespace openloop::workload {

enum class GeneratorKind : std::uint8_t { zipf, uniform, sequence, choice, csv, captured };

/// Per-worker, per-variable state of a generator: its random stream, its counter and the buffer that holds
/// the last integer drawn. Created by Generator::start(); owned by one worker (not thread-safe).
struct GeneratorState {
  Rng rng;
  std::uint64_t counter = 0;  ///< sequence: next offset (worker + k·workers); csv round-robin: next row
  std::uint64_t step = 1;     ///< the number of workers
  std::array<char, 24> digits{};
};

/// What a variable draws, as declared: immutable after construction, shared by every worker (const methods
/// are thread-safe). The expression syntax (`parse`):
///  - zipf(N, S)            integer rank 1..N, P(k) ∝ 1/k^S (N ≤ 2^53, 0 < S ≤ 100): realistic key popularity
///  - uniform(A, B)         integer uniform on [A, B] (64-bit signed, A ≤ B)
///  - sequence(START)       START, START+1, ... over the whole run. Sharded: worker w of W yields START+w,
///                          START+w+W, START+w+2W, ... so the workers together yield every value exactly once
///                          (the global sequence), each in increasing order; the interleaving follows their
///                          timing.
///  - choice(V1, V2, ...)   one of the values, uniformly; a value with commas, parentheses, spaces or quotes
///  is
///                          written "in double quotes" (\" and \\ escape inside)
///  - csv(FILE, COLUMN)     the column's values in file order, round-robin: worker w of W reads rows w, w+W,
///  ...
///                          (mod rows), so the workers together read every row in turn. csv(FILE, COLUMN,
///                          random) draws rows uniformly. FILE is relative to the plan file's folder; it is
///                          read once.
/// Every random draw comes from the per-worker GeneratorState's Rng, so a worker's values are a function of
/// the seed, the stream and how many draws it made.
class Generator {
 public:
  static Generator zipf(std::uint64_t n, double s);
  static Generator uniform(std::int64_t a, std::int64_t b);
  static Generator sequence(std::int64_t start);
  /// Preconditions: `values` not empty.
  static Generator choice(std::vector<std::string> values);
  /// Values loaded from a CSV column; `text` is the expression shown in descriptions.
  static Generator csv(std::vector<std::string> values, bool random, std::string text);
  /// A value a flow step captures from a response (workload/flow_step.h): it draws nothing; each session's
  /// value is set into the worker's VariableState before its step renders (VariableState::set).
  static Generator captured();

  /// Parses an expression of the forms above. `what` names the place in errors (e.g. "plan.yaml:7:8:
  /// variables.sku"); `base_dir` resolves relative csv paths. Errors (usage) quote the expression, say what
  /// is wrong and list the accepted forms.
  static Result<Generator> parse(std::string_view expression, std::string_view what,
                                 const std::filesystem::path& base_dir);

  /// The per-worker state for worker `worker` of `workers` (≥ 1), its random stream Rng(seed, stream).
  GeneratorState start(std::uint64_t seed, std::uint64_t stream, unsigned worker, unsigned workers) const;
  /// Draws the next value (a captured variable: empty). The view points into `state` (integers) or into this generator (choice, csv) and
  /// is valid until the next call with the same state. Allocation-free, O(1).
  std::string_view next(GeneratorState& state) const;

  GeneratorKind kind() const { return m_kind; }
  /// Canonical expression, e.g. "zipf(10000, 1.1)".
  const std::string& text() const { return m_text; }
  /// The finite set of values it can produce (choice, csv); null for the integer generators, whose values are
  /// only digits and '-'.
  const std::vector<std::string>* values() const { return m_values.get(); }
  /// How many distinct values it can produce (saturating at UINT64_MAX), for descriptions and key warnings.
  std::uint64_t cardinality() const;

 private:
  Generator(GeneratorKind kind, std::string text) : m_kind(kind), m_text(std::move(text)) {}

  GeneratorKind m_kind;
  std::string m_text;
  ZipfDistribution m_zipf{1, 1.0};
  std::int64_t m_a = 0;   ///< uniform: A; sequence: START
  std::int64_t m_b = 0;   ///< uniform: B
  bool m_random = false;  ///< csv: random rows instead of round-robin
  std::shared_ptr<const std::vector<std::string>> m_values;
};

}  // namespace openloop::workload
