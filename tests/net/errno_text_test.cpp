#include "net/errno_text.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

using openloop::net::errno_text;

TEST(ErrnoText, NamesTheError) {
  EXPECT_EQ(errno_text(ECONNREFUSED), "Connection refused");
  EXPECT_EQ(errno_text(EMFILE), "Too many open files");
}

TEST(ErrnoText, AnUnknownValueStillSaysSomething) {
  EXPECT_NE(errno_text(987654).find("987654"), std::string::npos);
}
