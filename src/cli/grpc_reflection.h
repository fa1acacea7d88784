// A gRPC run's schema from the server's reflection service, when neither --proto nor --protoset is given
// (docs/grpc.md).
#pragma once

#include <memory>
#include <string_view>

#include "cli/run_options.h"
#include "core/error.h"
#include "grpc/schema.h"

namespace openloop::cli {

/// Asks the server at `base` (http://host:port, or https:// for grpcs://) for the file that defines
/// `call`'s service and the files it imports, over one reflection stream (grpc.reflection.v1, then v1alpha
/// when the server does not implement v1), before the load; bounded by --timeout as a whole. Every failure is
/// a usage error (exit 2) naming the target and saying to pass --proto or --protoset: no reflection service
/// (UNIMPLEMENTED, an HTTP status other than 200, not HTTP/2), no answer in time, a service it does not know.
Result<std::unique_ptr<grpc::Schema>> schema_from_reflection(const RunOptions& o, std::string_view base,
                                                             std::string_view call);

}  // namespace openloop::cli
