// A request's parts copied into a RequestBuffer (http/request_copy.h).
#include "http/request_copy.h"

namespace openloop::http {

void copy_request(const RequestParts& p, std::string_view body, RequestBuffer& out) {
  using Field = RequestBuffer::Field;
  out.clear();
  out.append(p.method);
  out.end(Field::method);
  out.append(p.target);
  out.end(Field::target);
  out.append(p.authority);
  out.end(Field::authority);
  for (const HeaderView& h : p.headers) {
    out.append(h.name);
    out.end(Field::header_name);
    out.append(h.value);
    out.end(Field::header_value);
  }
  out.append(body);
  out.end(Field::body);
  out.finish(p.flags);
}

}  // namespace openloop::http
