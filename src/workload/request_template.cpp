// Rendering compiled request templates, status ranges, and the per-worker render context.
#include "workload/request_template.h"

#include <array>
#include <charconv>

#include <fmt/format.h>

namespace openloop::workload {

std::string StatusRange::to_string() const {
  return min == max ? std::to_string(min) : fmt::format("{}-{}", min, max);
}

Result<StatusRange> parse_status_range(std::string_view text, std::string_view what) {
  auto bad = [&] {
    return usage_error(fmt::format(
        "{}: \"{}\" is not a status range; use e.g. 200-299 or 201 (statuses 100-599)", what, text));
  };
  auto status = [](std::string_view s, int& out) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && out >= 100 && out <= 599;
  };
  StatusRange r;
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) {
    if (!status(text, r.min)) return bad();
    r.max = r.min;
    return r;
  }
  if (!status(text.substr(0, dash), r.min) || !status(text.substr(dash + 1), r.max) || r.min > r.max)
    return bad();
  return r;
}

RenderContext::RenderContext(const VariableSet& variables, std::size_t templates, std::uint64_t seed,
                             unsigned worker, unsigned workers)
    : m_variables(variables, seed, worker, workers), m_keys(templates) {}

void RequestTemplate::append(RenderContext& ctx, const std::vector<Piece>& pieces, std::string& out) const {
  for (const Piece& p : pieces) {
    if (p.variable == k_literal) {
      out.append(m_literals, p.offset, p.size);
    } else {
      out.append(ctx.m_variables.value(p.variable));
    }
  }
}

std::string_view RequestTemplate::render(RenderContext& ctx, std::string& out) const {
  if (!m_has_variables) {
    out.assign(m_constant);
    ctx.m_keys[m_index].observe(m_target_text);
    return m_target_text;
  }
  ctx.m_variables.new_draw();
  out.clear();
  append(ctx, m_head, out);
  std::string& body = ctx.m_body;
  body.clear();
  append(ctx, m_body, body);
  if (m_method_needs_length || !body.empty()) {
    std::array<char, 24> digits{};
    const auto [end, ec] = std::to_chars(digits.data(), digits.data() + digits.size(), body.size());
    out.append("Content-Length: ").append(digits.data(), end).append("\r\n");
  }
  out.append("\r\n").append(body);
  const std::string_view key = ctx.m_variables.value(*m_key_variable);
  ctx.m_keys[m_index].observe(key);
  return key;
}

}  // namespace openloop::workload
