#include "core/thread_name.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include <pthread.h>

using namespace openloop;

namespace {

std::string own_name() {
  char buf[32] = {};
  pthread_getname_np(pthread_self(), buf, sizeof buf);
  return buf;
}

}  // namespace

TEST(ThreadName, NamesOnlyTheCallingThreadAndKeepsItsFirst15Bytes) {
  const std::string before = own_name();
  std::string short_name, long_name;
  std::thread([&] {
    name_this_thread("openloop-w3");
    short_name = own_name();
    name_this_thread("openloop-a-name-too-long");
    long_name = own_name();
  }).join();
  EXPECT_EQ(short_name, "openloop-w3");
  EXPECT_EQ(long_name, "openloop-a-name");
  EXPECT_EQ(own_name(), before);
}
