// The auth flow's tokens and orders: what the lab issued is accepted, anything else is not.
#include "lab/auth_store.h"

#include <gtest/gtest.h>

#include <string>

using namespace openloop::lab;

TEST(AuthStore, IssuesAFreshTokenPerLoginAndAcceptsOnlyTokensItIssued) {
  AuthStore auth(7);
  const std::string a = auth.issue_token();
  const std::string b = auth.issue_token();
  EXPECT_NE(a, b);
  EXPECT_TRUE(auth.valid_token(a));
  EXPECT_TRUE(auth.valid_token(b));
  EXPECT_EQ(auth.counters().logins, 2u);
  EXPECT_FALSE(auth.valid_token(""));
  EXPECT_FALSE(auth.valid_token("lab3" + a.substr(a.find('.')))) << "a number it has not issued yet";
  std::string forged = a;
  forged.back() = forged.back() == '0' ? '1' : '0';
  EXPECT_FALSE(auth.valid_token(forged));
  EXPECT_FALSE(auth.valid_token(a + "0"));
  EXPECT_FALSE(auth.valid_token(a.substr(0, a.size() - 1)));
  AuthStore other(8);
  other.issue_token();
  EXPECT_FALSE(other.valid_token(a)) << "another lab's (another secret's) token";
}

TEST(AuthStore, ReadsBearerCredentialsAndTheSessionCookie) {
  AuthStore auth(7);
  const std::string t = auth.issue_token();
  EXPECT_TRUE(auth.authorizes("Bearer " + t, ""));
  EXPECT_TRUE(auth.authorizes("bearer  " + t + " ", ""));
  EXPECT_TRUE(auth.authorizes("Basic eDp5, Bearer " + t, ""));
  EXPECT_FALSE(auth.authorizes(t, "")) << "no scheme";
  EXPECT_FALSE(auth.authorizes("Basic " + t, ""));
  EXPECT_TRUE(auth.authorizes("", "a=1; lab_session=" + t + "; b=2"));
  EXPECT_TRUE(auth.authorizes("", "lab_session=" + t));
  EXPECT_FALSE(auth.authorizes("", "other=" + t));
  EXPECT_FALSE(auth.authorizes("", "lab_session"));
  EXPECT_FALSE(auth.authorizes("Bearer nope", "lab_session=nope"));
  EXPECT_TRUE(auth.authorizes("Bearer nope", "lab_session=" + t)) << "either credential will do";
}

TEST(AuthStore, OrdersExistOnlyOnceCreated) {
  AuthStore auth(7);
  EXPECT_FALSE(auth.order_exists(0));
  EXPECT_FALSE(auth.order_exists(1));
  EXPECT_EQ(auth.create_order(), 1u);
  EXPECT_EQ(auth.create_order(), 2u);
  EXPECT_TRUE(auth.order_exists(1));
  EXPECT_TRUE(auth.order_exists(2));
  EXPECT_FALSE(auth.order_exists(3));
}
