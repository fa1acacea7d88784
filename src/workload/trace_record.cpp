// A trace record rendered as a request (workload/trace_record.h).
#include "workload/trace_record.h"

#include <algorithm>
#include <cctype>

namespace openloop::workload {
namespace {

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

void render_record(const TraceRecord& r, std::string_view authority, std::span<const http::Header> extra,
                   http::RequestBuffer& out) {
  using Field = http::RequestBuffer::Field;
  out.clear();
  out.append(r.method);
  out.end(Field::method);
  out.append(r.target);
  out.end(Field::target);
  out.append(authority);
  out.end(Field::authority);
  bool user_agent = false;
  const auto header = [&](const http::Header& h) {
    user_agent = user_agent || same_name(h.name, "User-Agent");
    out.append(h.name);
    out.end(Field::header_name);
    out.append(h.value);
    out.end(Field::header_value);
  };
  for (const auto& h : r.headers) {
    const bool replaced =
        std::any_of(extra.begin(), extra.end(), [&](const http::Header& e) { return same_name(e.name, h.name); });
    if (!replaced) header(h);
  }
  for (const auto& h : extra) header(h);
  out.append(r.body);
  out.end(Field::body);
  const bool length_when_empty = r.method == "POST" || r.method == "PUT" || r.method == "PATCH";
  out.finish(http::RequestFlags{false, user_agent, false, length_when_empty});
}

}  // namespace openloop::workload
