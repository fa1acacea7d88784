// Tests for ${VAR} substitution in plan files: values from -e and the environment, defaults, the $${ escape,
// and every error with its file:line:column.
#include "workload/env_substitution.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace openloop;
using namespace openloop::workload;

namespace {

TextVariables defines(std::vector<std::pair<std::string, std::string>> d) {
  TextVariables v;
  v.defines = std::move(d);
  v.environment = false;
  return v;
}

std::string substituted(std::string_view text, const TextVariables& v) {
  auto out = substitute_variables(text, "plan.yaml", v);
  EXPECT_TRUE(out) << (out ? "" : out.error().message);
  return out ? *out : std::string();
}

std::string error_of(std::string_view text, const TextVariables& v) {
  auto out = substitute_variables(text, "plan.yaml", v);
  EXPECT_FALSE(out) << text;
  if (out) return {};
  EXPECT_EQ(out.error().code, ExitCode::usage);
  return out.error().message;
}

}  // namespace

TEST(EnvSubstitution, ReplacesReferencesWithDefinedValues) {
  const auto v = defines({{"HOST", "127.0.0.1:8080"}, {"RATE", "50/s"}});
  EXPECT_EQ(substituted("target: http://${HOST}\nrate: ${RATE}\n", v),
            "target: http://127.0.0.1:8080\nrate: 50/s\n");
}

TEST(EnvSubstitution, ALaterDefinitionWinsAndDefinitionsWinOverTheEnvironment) {
  ::setenv("OPENLOOP_TEST_RATE", "10/s", 1);
  TextVariables v;
  v.defines = {{"OPENLOOP_TEST_RATE", "20/s"}, {"OPENLOOP_TEST_RATE", "30/s"}};
  EXPECT_EQ(substituted("${OPENLOOP_TEST_RATE}", v), "30/s");
  v.defines.clear();
  EXPECT_EQ(substituted("${OPENLOOP_TEST_RATE}", v), "10/s");
  v.environment = false;
  EXPECT_EQ(substituted("${OPENLOOP_TEST_RATE:-1/s}", v), "1/s");
  ::unsetenv("OPENLOOP_TEST_RATE");
}

TEST(EnvSubstitution, ADefaultServesWhenTheVariableIsUnsetOrEmpty) {
  const auto v = defines({{"EMPTY", ""}, {"SET", "x"}});
  EXPECT_EQ(substituted("${UNSET:-http://h:1}|${EMPTY:-d}|${SET:-d}|${UNSET:-}", v), "http://h:1|d|x|");
}

TEST(EnvSubstitution, DollarDollarBraceIsALiteralAndALoneDollarStays) {
  const auto v = defines({{"A", "1"}});
  EXPECT_EQ(substituted("$${A} costs $5 and $A; ${A}$", v), "${A} costs $5 and $A; 1$");
}

TEST(EnvSubstitution, AnUnsetVariableWithoutDefaultNamesFileLineColumnAndTheVariable) {
  EXPECT_EQ(error_of("target: http://h\nrequests:\n  r: GET /${PATH_PREFIX}/x\n", defines({})),
            "plan.yaml:3:11: ${PATH_PREFIX}: the variable PATH_PREFIX is not set; set it in the environment or "
            "with -e PATH_PREFIX=VALUE, or give a default: ${PATH_PREFIX:-VALUE}");
}

TEST(EnvSubstitution, MalformedReferencesSayWhatIsAccepted) {
  EXPECT_EQ(error_of("a: ${1X}\n", defines({})),
            "plan.yaml:1:4: \"${1X}\" does not name a variable (letters, digits and _, not starting with a "
            "digit); write ${NAME} or ${NAME:-default}, or $${ for a literal ${");
  EXPECT_EQ(error_of("a: 1\nb: ${OPEN\nc: }\n", defines({})),
            "plan.yaml:2:4: \"${OPEN\" has no closing '}' on its line; write ${NAME} or ${NAME:-default}, or "
            "$${ for a literal ${");
  EXPECT_EQ(error_of("x ${}", defines({})).substr(0, 28), "plan.yaml:1:3: \"${}\" does no");
}

TEST(EnvSubstitution, AValueWithALineBreakIsRefusedSoPositionsStayTrue) {
  EXPECT_EQ(error_of("a: ${V}\n", defines({{"V", "1\nb: 2"}})),
            "plan.yaml:1:4: ${V}: its value holds a line break; a substituted value is one line of text");
}

TEST(EnvDefine, ParsesNameEqualsValue) {
  EXPECT_EQ(*parse_define("TARGET=http://h:1/?a=b", "-e"), (std::pair<std::string, std::string>{
                                                                "TARGET", "http://h:1/?a=b"}));
  EXPECT_EQ(*parse_define("EMPTY=", "-e"), (std::pair<std::string, std::string>{"EMPTY", ""}));
  const auto bad = parse_define("RATE", "-e");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "-e 'RATE': no '=' found; use NAME=value (NAME: letters, digits and _, not starting with a digit), "
            "e.g. -e TARGET=http://127.0.0.1:8080");
  EXPECT_FALSE(parse_define("9X=1", "-e"));
  EXPECT_FALSE(parse_define("=1", "-e"));
}
