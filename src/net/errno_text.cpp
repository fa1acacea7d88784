// errno_text over the GNU strerror_r, which returns either its buffer or a static string.
#include "net/errno_text.h"

#include <cstring>

namespace openloop::net {

std::string errno_text(int err) {
  char buffer[256];
  buffer[0] = '\0';
  const char* text = strerror_r(err, buffer, sizeof buffer);
  if (text == nullptr || *text == '\0') return "errno " + std::to_string(err);
  return text;
}

}  // namespace openloop::net
