// Generator construction and per-request drawing (the parser is in generator_parse.cpp).
#include "workload/generator.h"

#include <algorithm>
#include <cassert>
#include <charconv>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

std::string_view format_integer(std::int64_t value, std::array<char, 24>& out) {
  const auto [end, ec] = std::to_chars(out.data(), out.data() + out.size(), value);
  assert(ec == std::errc());
  return {out.data(), static_cast<std::size_t>(end - out.data())};
}

std::string_view format_integer(std::uint64_t value, std::array<char, 24>& out) {
  const auto [end, ec] = std::to_chars(out.data(), out.data() + out.size(), value);
  assert(ec == std::errc());
  return {out.data(), static_cast<std::size_t>(end - out.data())};
}

// A choice value as parse() reads it back: bare when it can be, else in double quotes with \" and \\ escaped.
std::string quote_if_needed(const std::string& value) {
  const bool bare =
      !value.empty() && value.find_first_of(",()\" \\") == std::string::npos &&
      std::none_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (bare) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Generator Generator::zipf(std::uint64_t n, double s) {
  Generator g(GeneratorKind::zipf, fmt::format("zipf({}, {})", n, s));
  g.m_zipf = ZipfDistribution(n, s);
  return g;
}

Generator Generator::uniform(std::int64_t a, std::int64_t b) {
  assert(a <= b);
  Generator g(GeneratorKind::uniform, fmt::format("uniform({}, {})", a, b));
  g.m_a = a;
  g.m_b = b;
  return g;
}

Generator Generator::sequence(std::int64_t start) {
  Generator g(GeneratorKind::sequence, fmt::format("sequence({})", start));
  g.m_a = start;
  return g;
}

Generator Generator::choice(std::vector<std::string> values) {
  assert(!values.empty());
  std::string text = "choice(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += quote_if_needed(values[i]);
  }
  Generator g(GeneratorKind::choice, text + ")");
  g.m_values = std::make_shared<const std::vector<std::string>>(std::move(values));
  return g;
}

Generator Generator::csv(std::vector<std::string> values, bool random, std::string text) {
  assert(!values.empty());
  Generator g(GeneratorKind::csv, std::move(text));
  g.m_random = random;
  g.m_values = std::make_shared<const std::vector<std::string>>(std::move(values));
  return g;
}

Generator Generator::captured() {
  return Generator(GeneratorKind::captured, "captured by a flow step");
}

GeneratorState Generator::start(std::uint64_t seed, std::uint64_t stream, unsigned worker,
                                unsigned workers) const {
  assert(workers >= 1 && worker < workers);
  GeneratorState state{Rng(seed, stream)};
  state.step = workers;
  state.counter = worker;
  if (m_kind == GeneratorKind::csv) state.counter = worker % m_values->size();
  return state;
}

std::string_view Generator::next(GeneratorState& state) const {
  switch (m_kind) {
    case GeneratorKind::zipf:
      return format_integer(m_zipf.sample(state.rng), state.digits);
    case GeneratorKind::uniform: {
      // The span B − A + 1 wraps to 0 only for the full 64-bit range, where every draw is already uniform.
      const std::uint64_t span = static_cast<std::uint64_t>(m_b) - static_cast<std::uint64_t>(m_a) + 1;
      const std::uint64_t offset = span == 0 ? state.rng.next() : state.rng.below(span);
      return format_integer(static_cast<std::int64_t>(static_cast<std::uint64_t>(m_a) + offset),
                            state.digits);
    }
    case GeneratorKind::sequence: {
      const std::uint64_t offset = state.counter;
      state.counter += state.step;
      return format_integer(static_cast<std::int64_t>(static_cast<std::uint64_t>(m_a) + offset),
                            state.digits);
    }
    case GeneratorKind::choice:
      return (*m_values)[state.rng.below(m_values->size())];
    case GeneratorKind::csv: {
      if (m_random) return (*m_values)[state.rng.below(m_values->size())];
      const std::uint64_t row = state.counter;
      state.counter = (state.counter + state.step) % m_values->size();
      return (*m_values)[row];
    }
    case GeneratorKind::captured:
      return {};
  }
  return {};
}

std::uint64_t Generator::cardinality() const {
  switch (m_kind) {
    case GeneratorKind::zipf:
      return m_zipf.n();
    case GeneratorKind::uniform: {
      const std::uint64_t span = static_cast<std::uint64_t>(m_b) - static_cast<std::uint64_t>(m_a) + 1;
      return span == 0 ? UINT64_MAX : span;
    }
    case GeneratorKind::sequence:
    case GeneratorKind::captured:
      return UINT64_MAX;
    case GeneratorKind::choice:
    case GeneratorKind::csv:
      return m_values->size();
  }
  return 0;
}

}  // namespace openloop::workload
