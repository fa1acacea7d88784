// Errors for setup, configuration and I/O: tl::expected<T, Error>, thrown nowhere, mapped to exit codes in
// main.
#pragma once

#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace openloop {

/// Process exit codes (DESIGN.md): the contract with scripts and CI systems that run openloop.
enum class ExitCode : int {
  ok = 0,            ///< valid run, every SLO met
  slo_failed = 1,    ///< an SLO failed
  usage = 2,         ///< bad usage or bad input; nothing was sent
  invalid_run = 3,   ///< the rig did not apply the plan
  runtime = 4,       ///< runtime failure, e.g. target unreachable
  late_start = 75,   ///< --start-at: the start came later than --max-late; nothing was sent (EX_TEMPFAIL)
  interrupted = 130  ///< SIGINT/SIGTERM; results still written
};

/// An error with the exit code it maps to and a message that names the input, the place and what is accepted.
struct Error {
  ExitCode code = ExitCode::runtime;
  std::string message;
};

template <class T>
using Result = tl::expected<T, Error>;

/// A usage/input error (exit 2).
tl::unexpected<Error> usage_error(std::string message);
/// A runtime error (exit 4).
tl::unexpected<Error> runtime_error(std::string message);

}  // namespace openloop

/// Propagates the error of a Result<T> expression, else yields its value (GNU statement expression).
#define OPENLOOP_TRY(expr)                                                          \
  __extension__({                                                                   \
    auto&& openloop_try_result_ = (expr);                                           \
    if (!openloop_try_result_) return tl::unexpected(openloop_try_result_.error()); \
    std::move(*openloop_try_result_);                                               \
  })

/// Propagates the error of a Result<void> expression.
#define OPENLOOP_TRY_VOID(expr)                                                     \
  do {                                                                              \
    auto&& openloop_try_result_ = (expr);                                           \
    if (!openloop_try_result_) return tl::unexpected(openloop_try_result_.error()); \
  } while (false)
