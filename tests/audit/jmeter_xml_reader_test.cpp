#include "audit/jmeter_xml_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(JmeterXmlReader, ReadsTopLevelSamplesAcrossLinesAndSkipsNestedOnes) {
  auto reader = JmeterXmlReader::open(testing::fixture("jmeter.xml"));
  ASSERT_TRUE(reader) << reader.error().message;
  std::vector<Record> all;
  Record r;
  while (*(*reader)->next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].start, Nanos(1'509'841'690'552'000'000LL));
  EXPECT_EQ(all[0].duration, std::chrono::milliseconds(354));
  EXPECT_EQ(all[0].thread, "Checkout 1-1");
  EXPECT_EQ(all[0].label, "login");
  EXPECT_EQ(all[1].label, "cart, add & pay");  // an attribute over three lines, an entity decoded
  EXPECT_EQ(all[2].thread, "Checkout 1-2");
  EXPECT_FALSE(all[2].ok);
  EXPECT_EQ(all[3].duration, std::chrono::milliseconds(15));
  // Line 13 lacks t; line 15 is cut inside its tag.
  const BadLines& bad = (*reader)->bad_lines();
  EXPECT_EQ(bad.count, 2);
  EXPECT_NE(bad.first.find("jmeter.xml:13: a <httpSample> without t (elapsed)"), std::string::npos)
      << bad.first;
  const auto notes = (*reader)->notes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("1 samples nested"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("</testResults>"), std::string::npos) << notes[1];
}

TEST(JmeterXmlReader, TruncatedTagNamesItsLine) {
  testing::TempFile f("<testResults>\n<sample t=\"1\" ts=\"2\"/>\n<sample t=\"1\"\n ts=\"3");
  auto reader = JmeterXmlReader::open(f.path());
  ASSERT_TRUE(reader) << reader.error().message;
  Record r;
  EXPECT_TRUE(*(*reader)->next(r));
  EXPECT_FALSE(*(*reader)->next(r));
  EXPECT_NE((*reader)->bad_lines().first.find(":3: a tag '<sample t=\"1\""), std::string::npos)
      << (*reader)->bad_lines().first;
  EXPECT_NE((*reader)->bad_lines().first.find("(truncated)"), std::string::npos);
}

TEST(JmeterXmlReader, ATagTooLongToKeepIsNamedAndTheNestingStaysRight) {
  // A sample whose label is over 1 MiB: skipped and named; its end tag must not end <testResults>, or the
  // next sample would read as nested.
  testing::TempFile f("<testResults>\n<sample t=\"1\" ts=\"2\" lb=\"" + std::string((1 << 20) + 10, 'x') +
                      "\"></sample>\n<sample t=\"3\" ts=\"4\"/>\n</testResults>\n");
  auto reader = JmeterXmlReader::open(f.path());
  ASSERT_TRUE(reader) << reader.error().message;
  Record r;
  ASSERT_TRUE(*(*reader)->next(r));
  EXPECT_EQ(r.duration, std::chrono::milliseconds(3));
  EXPECT_FALSE(*(*reader)->next(r));
  EXPECT_NE((*reader)->bad_lines().first.find(":2: a tag longer than"), std::string::npos)
      << (*reader)->bad_lines().first;
  EXPECT_TRUE((*reader)->notes().empty());
}

TEST(JmeterXmlReader, RefusesAFileThatDoesNotStartWithTestResults) {
  testing::TempFile f("<?xml version=\"1.0\"?>\n<jmeterTestPlan version=\"1.2\">\n");
  auto reader = JmeterXmlReader::open(f.path());
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find(":2: expected a JMeter XML JTL"), std::string::npos)
      << reader.error().message;
}

TEST(XmlAttribute, FindsQuotedValuesAndDecodesEntities) {
  std::string v;
  EXPECT_TRUE(xml_attribute("sample t='5' lb=\"a &lt;b&gt; &#233;&#x41;\"/", "lb", v));
  EXPECT_EQ(v,
            "a <b> \xC3\xA9"
            "A");
  EXPECT_TRUE(xml_attribute("sample t='5' lb=\"x\"", "t", v));
  EXPECT_EQ(v, "5");
  EXPECT_FALSE(xml_attribute("sample tn=\"5\"", "t", v));
  EXPECT_FALSE(xml_attribute("sample t=\"5", "t", v));
}

}  // namespace
}  // namespace openloop::audit
