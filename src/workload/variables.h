// Template variables: the plan's set of generators (named and inline) and each worker's draws from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "workload/generator.h"

namespace openloop::workload {

/// The variables of a plan: named ones declared in the file (`variables: {sku: "zipf(10000, 1.1)"}`) and
/// anonymous ones written inline in templates (`{{uniform(1, 5)}}`, each occurrence its own variable).
/// Indices are stable once added. Built at load time, then immutable and shared by every worker (const
/// methods are thread-safe).
class VariableSet {
 public:
  /// Adds a named variable. Errors (usage, prefixed by `what`): the name is not an identifier
  /// ([A-Za-z_][A-Za-z0-9_]*) or is already declared.
  Result<std::size_t> declare(std::string name, Generator generator, std::string_view what);
  /// Adds an anonymous variable (an inline expression in a template); returns its index.
  std::size_t add_inline(Generator generator);
  /// Index of the named variable, if declared.
  std::optional<std::size_t> find(std::string_view name) const;

  std::size_t size() const { return m_entries.size(); }
  const Generator& generator(std::size_t index) const { return m_entries[index].generator; }
  /// The declared name, or "" for an inline variable.
  const std::string& name(std::size_t index) const { return m_entries[index].name; }
  /// "sku" for a named variable, the expression ("zipf(1000, 1.1)") for an inline one.
  const std::string& label(std::size_t index) const;

 private:
  struct Entry {
    std::string name;
    Generator generator;
  };
  std::vector<Entry> m_entries;
};

/// One worker's draws from a VariableSet. Variable i of worker w draws from Rng(seed, stream_of(i, w)), so a
/// worker's values depend only on the seed, its index and its own sequence of draws (never on other workers
/// or the clock); sequence and csv round-robin are sharded as Generator documents. Values are drawn lazily
/// and at most once per draw: every reference to a variable between two calls of new_draw() sees the same
/// value (a request that puts {{sku}} in its path and its body uses one key). Allocation-free after
/// construction; not thread-safe (one per worker). Non-copyable: the views it hands out point into it.
class VariableState {
 public:
  /// Preconditions: workers ≥ 1, worker < workers. `set` must outlive this object.
  VariableState(const VariableSet& set, std::uint64_t seed, unsigned worker, unsigned workers);
  VariableState(const VariableState&) = delete;
  VariableState& operator=(const VariableState&) = delete;
  VariableState(VariableState&&) = default;
  VariableState& operator=(VariableState&&) = default;

  /// Starts a new draw: the next value(i) of every variable is fresh. O(1).
  void new_draw() { ++m_epoch; }
  /// Variable i's value in the current draw (drawn on first use). Valid until the next draw of variable i.
  /// A captured variable's value is the last one set(), whatever the draw.
  std::string_view value(std::size_t index);
  /// Sets captured variable i's value (a session's, before its step renders); the view must stay valid until
  /// the render. Preconditions: variable i is captured (GeneratorKind::captured).
  void set(std::size_t index, std::string_view value) { m_slots[index].current = value; }

  /// The random stream of variable `index` on worker `worker`: disjoint from the arrival schedules' streams
  /// (which are the worker index itself).
  static std::uint64_t stream_of(std::size_t index, unsigned worker);

 private:
  struct Slot {
    GeneratorState state;
    std::uint64_t epoch = 0;  ///< the draw `current` belongs to
    std::string_view current;
    bool captured = false;  ///< set() gives the value; no draw
  };
  const VariableSet* m_set;
  std::vector<Slot> m_slots;
  std::uint64_t m_epoch = 1;
};

}  // namespace openloop::workload
