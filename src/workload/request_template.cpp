// Rendering compiled request templates, status ranges, and the per-worker render context.
#include "workload/request_template.h"

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

std::string_view RequestTemplate::render(RenderContext& ctx, http::RequestBuffer& out) const {
  if (m_has_variables) ctx.m_variables.new_draw();
  out.clear();
  const std::string_view literals = m_literals;
  for (const Piece& p : m_pieces) {
    if (p.variable == k_literal) {
      out.append(literals.substr(p.offset, p.size));
    } else if (p.variable == k_end) {
      out.end(p.field);
    } else {
      out.append(ctx.m_variables.value(p.variable));
    }
  }
  out.finish(m_flags);
  const std::string_view key =
      m_has_variables ? ctx.m_variables.value(*m_key_variable) : std::string_view(m_target_text);
  ctx.m_keys[m_index].observe(key);
  return key;
}

}  // namespace openloop::workload
