#include "core/thread_priority.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace openloop;

namespace {

int own_nice() {
  errno = 0;
  return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
}

}  // namespace

TEST(ThreadPriority, LowersOnlyTheCallingThread) {
  const int policy_before = sched_getscheduler(0);
  const int nice_before = own_nice();
  ASSERT_NE(policy_before, SCHED_IDLE);
  ASSERT_LT(nice_before, 19);
  LowPriority got = LowPriority::unchanged;
  int policy = -1, nice = -100;
  std::thread([&] {
    got = lower_this_thread_priority();
    policy = sched_getscheduler(0);
    nice = own_nice();
  }).join();
  switch (got) {
    case LowPriority::idle:
      EXPECT_EQ(policy, SCHED_IDLE);
      break;
    case LowPriority::nice19:
      EXPECT_EQ(nice, 19);
      break;
    case LowPriority::unchanged:
      ADD_FAILURE() << "neither SCHED_IDLE nor nice 19 was allowed";
      break;
  }
  EXPECT_EQ(sched_getscheduler(0), policy_before);
  EXPECT_EQ(own_nice(), nice_before);
}
