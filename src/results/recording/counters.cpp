// Counter arithmetic and names.
#include "results/recording/counters.h"

#include <fmt/format.h>

namespace openloop::results {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::connect:
      return "connect";
    case ErrorKind::reset:
      return "reset";
    case ErrorKind::read:
      return "read";
    case ErrorKind::write:
      return "write";
    case ErrorKind::parse:
      return "parse";
    case ErrorKind::tls:
      return "tls";
    case ErrorKind::dns:
      return "dns";
    case ErrorKind::generator:
      return "generator";
    case ErrorKind::count_:
      break;
  }
  return "unknown";
}

std::uint64_t Counters::errors_total() const {
  std::uint64_t sum = 0;
  for (auto e : errors) sum += e;
  return sum;
}

bool Counters::conserved() const {
  return intended == completed + timeouts + errors_total() + dropped + unfinished;
}

std::string Counters::imbalance() const {
  if (!conserved()) {
    return fmt::format(
        "intended {} but completed {} + timeouts {} + errors {} + dropped {} + unfinished {} = {}", intended,
        completed, timeouts, errors_total(), dropped, unfinished,
        completed + timeouts + errors_total() + dropped + unfinished);
  }
  if (ok > completed || completed > sent || sent > intended) {
    return fmt::format("expected ok {} ≤ completed {} ≤ sent {} ≤ intended {}", ok, completed, sent,
                       intended);
  }
  if (slot_waits > intended) {  // a slot wait is an arrival's, counted in its interval
    return fmt::format("expected slot_waits {} ≤ intended {}", slot_waits, intended);
  }
  std::uint64_t statuses = 0;
  for (auto n : status_class) statuses += n;
  // Files written before status classes were counted have none at all: nothing to compare then.
  if (statuses != 0 && statuses != completed) {
    return fmt::format("the status classes add up to {}, but completed is {}", statuses, completed);
  }
  if (grpc_calls() > completed) {
    return fmt::format("the gRPC statuses add up to {}, but completed is {}", grpc_calls(), completed);
  }
  return {};
}

void Counters::add(const Counters& o) {
  intended += o.intended;
  sent += o.sent;
  completed += o.completed;
  ok += o.ok;
  timeouts += o.timeouts;
  dropped += o.dropped;
  unfinished += o.unfinished;
  for (std::size_t i = 0; i < errors.size(); ++i) errors[i] += o.errors[i];
  for (std::size_t i = 0; i < status_class.size(); ++i) status_class[i] += o.status_class[i];
  bytes_in += o.bytes_in;
  bytes_out += o.bytes_out;
  connections_opened += o.connections_opened;
  attempts += o.attempts;
  retries += o.retries;
  retry_budget_denied += o.retry_budget_denied;
  resent += o.resent;
  slot_waits += o.slot_waits;
  for (std::size_t i = 0; i < grpc_status.size(); ++i) grpc_status[i] += o.grpc_status[i];
  grpc_messages_in += o.grpc_messages_in;
  grpc_message_bytes_in += o.grpc_message_bytes_in;
}

std::uint64_t Counters::grpc_calls() const {
  std::uint64_t n = 0;
  for (auto k : grpc_status) n += k;
  return n;
}

double Counters::amplification() const {
  if (sent == 0) return 0;
  return attempts == 0 ? 1.0 : static_cast<double>(attempts) / static_cast<double>(sent);
}

}  // namespace openloop::results
