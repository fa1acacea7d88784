// The process's file-descriptor table, grown once before the run instead of while connections open.
#pragma once

#include <cstdint>

namespace openloop::net {

/// Grows this process's descriptor table now so that it holds `count` descriptors (capped by RLIMIT_NOFILE),
/// so that opening connections during a run never grows it. Linux grows the table by reallocating it, and in
/// a process with several threads each growth waits for an RCU grace period: measured here, a socket() call
/// took 15.9 ms while 5000 connections a second were being opened, which delayed every send behind it. The
/// table never shrinks. Best effort: does nothing when the descriptors cannot be duplicated.
void reserve_descriptor_table(std::uint64_t count);

/// The descriptor table's current size (FDSize in /proc/self/status), 0 if unknown.
std::uint64_t descriptor_table_size();

}  // namespace openloop::net
