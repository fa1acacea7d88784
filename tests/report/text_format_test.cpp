// Latencies as durations and one escaper per output language: HTML, XML (any bytes to well-formed XML 1.0),
// CSV.
#include "report/text_format.h"

#include <string>

#include <gtest/gtest.h>

namespace openloop::report {
namespace {

std::string attr(std::string_view text) {
  return xml::escape(text, true);
}

TEST(FormatLatency, NanosecondsInDurationUnits) {
  EXPECT_EQ(format_latency(0), "0");
  EXPECT_EQ(format_latency(850), "850ns");
  EXPECT_EQ(format_latency(1'500'000), "1.5ms");
  EXPECT_EQ(format_latency(12'340'000'000), "12.3s");
}

// One duration formatter for every output: a latency in nanoseconds (tables), seconds (results files) and the
// milliseconds a repeats block holds all read alike, three significant digits in the unit that fits.
TEST(FormatLatency, EveryUnitOfInputReadsAlike) {
  EXPECT_EQ(format_latency(151'000), "151µs");
  EXPECT_EQ(format_seconds(0.000151), "151µs");
  EXPECT_EQ(format_seconds(0.151 / 1e3), "151µs");
  EXPECT_EQ(format_seconds(1.25), "1.25s");
  EXPECT_EQ(format_seconds(90), "1m30s");
  EXPECT_EQ(format_per_second(1234.56), "1234.6/s");
}

TEST(HtmlEscape, EscapesMarkupAndBothQuotes) {
  EXPECT_EQ(html::escape(R"(<a href="x">'&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(html::escape("p99 ≤ 200 ms"), "p99 ≤ 200 ms");
}

TEST(XmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(attr(R"(a<b>&"c"'d')"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  EXPECT_EQ(attr("line1\nline2\tx"), "line1&#10;line2&#9;x");
  EXPECT_EQ(attr("http://h/?a=1&b=2"), "http://h/?a=1&amp;b=2");
}

TEST(XmlEscape, KeepsValidUtf8) {
  EXPECT_EQ(attr("p99 ≤ 200 ms, ü, 😀"), "p99 ≤ 200 ms, ü, 😀");
}

TEST(XmlEscape, ReplacesInvalidUtf8AndForbiddenCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(attr("a\xFF"
                 "b"),
            "a" + fffd + "b");                                // not UTF-8
  EXPECT_EQ(attr("\xC3"), fffd);                              // truncated sequence
  EXPECT_EQ(attr("\xC0\xAF"), fffd + fffd);                   // overlong '/'
  EXPECT_EQ(attr("\xED\xA0\x80"), fffd + fffd + fffd);        // a surrogate
  EXPECT_EQ(attr(std::string("x\0y", 3)), "x" + fffd + "y");  // NUL
  EXPECT_EQ(attr("\x1B[31m"), fffd + "[31m");                 // ESC
  EXPECT_EQ(attr("\xEF\xBF\xBE"), fffd);                      // U+FFFE
}

TEST(XmlEscape, ElementTextKeepsNewlinesAndTabs) {
  EXPECT_EQ(xml::escape("line1\nline2\tx\r", false), "line1\nline2\tx&#13;");
}

TEST(CsvField, QuotedOnlyWhenItMustBe) {
  EXPECT_EQ(csv::field("run"), "run");
  EXPECT_EQ(csv::field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv::field(R"(say "hi")"), R"("say ""hi""")");
  EXPECT_EQ(csv::field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv::field(""), "");
}

}  // namespace
}  // namespace openloop::report
