// Parsing generator expressions such as zipf(10000, 1.1) or choice("a, b", c) into a Generator.
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "workload/csv_column.h"
#include "workload/generator.h"

namespace openloop::workload {
namespace {

constexpr std::string_view k_accepted =
    "accepted: zipf(N, S), uniform(A, B), sequence(START), choice(V1, V2, ...), csv(FILE, COLUMN[, random])";

struct Arg {
  std::string text;
  bool quoted = false;
};

struct Call {
  std::string name;
  std::vector<Arg> args;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// Reads one "quoted" argument starting after its opening quote; `pos` ends after the closing quote.
std::optional<std::string> read_quoted(std::string_view s, std::size_t& pos) {
  std::string out;
  while (pos < s.size()) {
    const char c = s[pos++];
    if (c == '"') return out;
    if (c == '\\' && pos < s.size() && (s[pos] == '"' || s[pos] == '\\')) {
      out += s[pos++];
    } else {
      out += c;
    }
  }
  return std::nullopt;
}

// Splits "a, "b, c", d" into arguments; error text (without location) on a malformed list.
tl::expected<std::vector<Arg>, std::string> split_args(std::string_view s) {
  std::vector<Arg> args;
  if (trim(s).empty()) return args;
  std::size_t pos = 0;
  while (true) {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos])) != 0) ++pos;
    Arg arg;
    std::size_t end = pos;
    if (pos < s.size() && s[pos] == '"') {
      ++pos;
      auto quoted = read_quoted(s, pos);
      if (!quoted) return tl::unexpected(std::string("a quoted value is not closed"));
      arg = Arg{std::move(*quoted), true};
      end = s.find(',', pos);
      if (!trim(s.substr(pos, end == s.npos ? s.npos : end - pos)).empty()) {
        return tl::unexpected(std::string("text after a quoted value; separate values with commas"));
      }
    } else {
      end = s.find(',', pos);
      arg.text = std::string(trim(s.substr(pos, end == s.npos ? s.npos : end - pos)));
      if (arg.text.empty()) return tl::unexpected(std::string("an empty value"));
    }
    args.push_back(std::move(arg));
    if (end == s.npos) return args;
    pos = end + 1;
  }
}

tl::expected<Call, std::string> split_call(std::string_view expression) {
  const std::string_view s = trim(expression);
  const auto open = s.find('(');
  if (open == s.npos || s.back() != ')')
    return tl::unexpected(std::string("not a call such as zipf(1000, 1.1)"));
  Call call{std::string(trim(s.substr(0, open))), {}};
  auto args = split_args(s.substr(open + 1, s.size() - open - 2));
  if (!args) return tl::unexpected(args.error());
  call.args = std::move(*args);
  return call;
}

template <class T>
std::optional<T> number(const Arg& arg) {
  T value{};
  const char* first = arg.text.data();
  const char* last = first + arg.text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (arg.quoted || ec != std::errc() || ptr != last) return std::nullopt;
  return value;
}

class Builder {
 public:
  Builder(std::string_view expression, std::string_view what, const std::filesystem::path& base_dir)
      : m_expression(trim(expression)), m_what(what), m_base_dir(base_dir) {}

  tl::unexpected<Error> bad(std::string_view why) const {
    return usage_error(fmt::format("{}: \"{}\": {}; {}", m_what, m_expression, why, k_accepted));
  }

  Result<Generator> build(const Call& c) const {
    if (c.name == "zipf") return zipf(c.args);
    if (c.name == "uniform") return uniform(c.args);
    if (c.name == "sequence") return sequence(c.args);
    if (c.name == "choice") return choice(c.args);
    if (c.name == "csv") return csv(c.args);
    return bad(fmt::format("unknown generator \"{}\"", c.name));
  }

 private:
  Result<Generator> zipf(const std::vector<Arg>& args) const {
    if (args.size() != 2) return bad("zipf takes N (the number of keys) and S (the exponent)");
    const auto n = number<std::uint64_t>(args[0]);
    if (!n || *n < 1 || *n > ZipfDistribution::k_max_n) return bad("N must be a whole number from 1 to 2^53");
    const auto s = number<double>(args[1]);
    if (!s || !std::isfinite(*s) || *s <= 0 || *s > 100) {
      return bad("S must be a number above 0 and at most 100 (1.0 is the classic Zipf law)");
    }
    return Generator::zipf(*n, *s);
  }

  Result<Generator> uniform(const std::vector<Arg>& args) const {
    if (args.size() != 2) return bad("uniform takes two whole numbers A and B");
    const auto a = number<std::int64_t>(args[0]);
    const auto b = number<std::int64_t>(args[1]);
    if (!a || !b) return bad("A and B must be whole numbers (64-bit)");
    if (*a > *b) return bad("A must not exceed B");
    return Generator::uniform(*a, *b);
  }

  Result<Generator> sequence(const std::vector<Arg>& args) const {
    if (args.size() != 1) return bad("sequence takes its first value START");
    const auto start = number<std::int64_t>(args[0]);
    if (!start) return bad("START must be a whole number (64-bit)");
    return Generator::sequence(*start);
  }

  Result<Generator> choice(const std::vector<Arg>& args) const {
    if (args.empty()) return bad("choice needs at least one value");
    std::vector<std::string> values;
    for (const Arg& a : args) values.push_back(a.text);
    return Generator::choice(std::move(values));
  }

  Result<Generator> csv(const std::vector<Arg>& args) const {
    if (args.size() != 2 && args.size() != 3) return bad("csv takes FILE, COLUMN and optionally random");
    bool random = false;
    if (args.size() == 3) {
      if (args[2].text != "random" && args[2].text != "round_robin") {
        return bad(fmt::format("the third value \"{}\" is not random or round_robin", args[2].text));
      }
      random = args[2].text == "random";
    }
    std::filesystem::path path(args[0].text);
    if (path.is_relative()) path = m_base_dir / path;
    auto values =
        load_csv_column(path.string(), args[1].text, fmt::format("{}: \"{}\"", m_what, m_expression));
    if (!values) return tl::unexpected(values.error());
    std::string text = fmt::format("csv({}, {}{})", args[0].text, args[1].text, random ? ", random" : "");
    return Generator::csv(std::move(*values), random, std::move(text));
  }

  std::string_view m_expression;
  std::string_view m_what;
  const std::filesystem::path& m_base_dir;
};

}  // namespace

Result<Generator> Generator::parse(std::string_view expression, std::string_view what,
                                   const std::filesystem::path& base_dir) {
  const Builder builder(expression, what, base_dir);
  auto call = split_call(expression);
  if (!call) return builder.bad(call.error());
  return builder.build(*call);
}

}  // namespace openloop::workload
