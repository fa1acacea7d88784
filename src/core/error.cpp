// Constructors for the two common error kinds.
#include "core/error.h"

namespace openloop {

tl::unexpected<Error> usage_error(std::string message) {
  return tl::unexpected(Error{ExitCode::usage, std::move(message)});
}

tl::unexpected<Error> runtime_error(std::string message) {
  return tl::unexpected(Error{ExitCode::runtime, std::move(message)});
}

}  // namespace openloop
