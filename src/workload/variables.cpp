// Variable declaration, lookup, and per-worker lazy drawing.
#include "workload/variables.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

}  // namespace

Result<std::size_t> VariableSet::declare(std::string name, Generator generator, std::string_view what) {
  if (!is_identifier(name)) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a variable name; use letters, digits and _ (not starting "
                    "with a digit), e.g. sku or user_id",
                    what, name));
  }
  if (find(name)) return usage_error(fmt::format("{}: variable \"{}\" is declared twice", what, name));
  m_entries.push_back(Entry{std::move(name), std::move(generator)});
  return m_entries.size() - 1;
}

std::size_t VariableSet::add_inline(Generator generator) {
  m_entries.push_back(Entry{std::string(), std::move(generator)});
  return m_entries.size() - 1;
}

std::optional<std::size_t> VariableSet::find(std::string_view name) const {
  if (name.empty()) return std::nullopt;
  for (std::size_t i = 0; i < m_entries.size(); ++i) {
    if (m_entries[i].name == name) return i;
  }
  return std::nullopt;
}

const std::string& VariableSet::label(std::size_t index) const {
  const Entry& e = m_entries[index];
  return e.name.empty() ? e.generator.text() : e.name;
}

VariableState::VariableState(const VariableSet& set, std::uint64_t seed, unsigned worker, unsigned workers)
    : m_set(&set) {
  m_slots.reserve(set.size());
  for (std::size_t i = 0; i < set.size(); ++i) {
    const Generator& g = set.generator(i);
    m_slots.push_back(Slot{g.start(seed, stream_of(i, worker), worker, workers), 0, {},
                           g.kind() == GeneratorKind::captured});
  }
}

std::string_view VariableState::value(std::size_t index) {
  Slot& slot = m_slots[index];
  if (slot.epoch != m_epoch && !slot.captured) {
    slot.current = m_set->generator(index).next(slot.state);
    slot.epoch = m_epoch;
  }
  return slot.current;
}

std::uint64_t VariableState::stream_of(std::size_t index, unsigned worker) {
  // Arrival schedules use streams 0..workers−1; variables live above 2^32, one block of 2^32 per variable.
  return ((static_cast<std::uint64_t>(index) + 1) << 32) | worker;
}

}  // namespace openloop::workload
