// The compare page: self-contained HTML with both response-time spectra overlaid as an inline SVG.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "compare/compare_report.h"
#include "report/text_format.h"

namespace openloop::compare {
namespace {

constexpr double k_width = 760, k_height = 360, k_left = 70, k_right = 20, k_top = 20, k_bottom = 50;

// Points (x = log10(1 / (1 − p)), y = ms) of a histogram's spectrum up to the percentile its count resolves.
std::vector<std::pair<double, double>> spectrum(const hdr::Histogram& h, double x_max) {
  std::vector<std::pair<double, double>> pts;
  if (h.total_count() == 0) return pts;
  const double own_max = std::min(x_max, std::log10(static_cast<double>(h.total_count())));
  for (int i = 0; i <= 200; ++i) {
    const double x = own_max * i / 200.0;
    const double p = 100.0 * (1.0 - std::pow(10.0, -x));
    pts.emplace_back(x, static_cast<double>(h.value_at_percentile(p)) / 1e6);
  }
  return pts;
}

std::string polyline(const std::vector<std::pair<double, double>>& pts, double x_max, double y_max,
                     const char* colour) {
  std::string points;
  for (const auto& [x, y] : pts) {
    const double px = k_left + x / x_max * (k_width - k_left - k_right);
    const double py = k_height - k_bottom - y / y_max * (k_height - k_top - k_bottom);
    points += fmt::format("{:.1f},{:.1f} ", px, py);
  }
  return fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour,
                     points);
}

std::string chart(const Comparison& c) {
  const double counts =
      static_cast<double>(std::max(c.baseline_response.total_count(), c.candidate_response.total_count()));
  if (counts == 0) return "<p>No response times to draw.</p>\n";
  const double x_max = std::clamp(std::ceil(std::log10(counts)), 1.0, 5.0);
  const auto b = spectrum(c.baseline_response, x_max), k = spectrum(c.candidate_response, x_max);
  double y_max = 0;
  for (const auto& pt : b) y_max = std::max(y_max, pt.second);
  for (const auto& pt : k) y_max = std::max(y_max, pt.second);
  y_max = y_max <= 0 ? 1 : y_max * 1.05;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "role=\"img\" aria-label=\"response time by percentile, baseline and candidate\">\n",
      k_width, k_height);
  const double plot_w = k_width - k_left - k_right, plot_h = k_height - k_top - k_bottom;
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
                     k_left, k_top, plot_w, plot_h);
  static constexpr const char* k_labels[] = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
  for (int i = 0; i <= static_cast<int>(x_max); ++i) {
    const double px = k_left + i / x_max * plot_w;
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/><text x=\"{0:.1f}\" "
        "y=\"{3}\" "
        "text-anchor=\"middle\" font-size=\"12\">{4}</text>\n",
        px, k_top, k_height - k_bottom, k_height - k_bottom + 16, k_labels[i]);
  }
  for (int i = 0; i <= 4; ++i) {
    const double v = y_max * i / 4, py = k_height - k_bottom - i / 4.0 * plot_h;
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#eee\"/><text x=\"{3}\" "
        "y=\"{4:.1f}\" "
        "text-anchor=\"end\" font-size=\"12\">{5:.3g} ms</text>\n",
        k_left, py, k_width - k_right, k_left - 6, py + 4, v);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"12\">percentile</text>\n",
                     k_left + plot_w / 2, k_height - 12);
  svg += polyline(b, x_max, y_max, "#1f77b4");
  svg += polyline(k, x_max, y_max, "#d62728");
  svg += "</svg>\n";
  return svg;
}

}  // namespace

std::string comparison_page(const std::string& heading, const std::string& css, const std::string& baseline,
                            const std::string& candidate, const std::string& finding, const std::string& chart_title,
                            const std::string& chart, const std::string& table) {
  using report::html::escape;
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>openloop compare</title>\n"
      "<style>body{font-family:sans-serif;margin:2em;max-width:60em}" +
      css + ".b{color:#1f77b4}.c{color:#d62728}pre{white-space:pre-wrap}</style></head><body>\n";
  page += fmt::format(
      "<h1>{}</h1>\n<p><span class=\"b\">&#9632; baseline</span> {} &nbsp; "
      "<span class=\"c\">&#9632; candidate</span> {}</p>\n",
      escape(heading), escape(baseline), escape(candidate));
  page += fmt::format("<p id=\"finding\"><strong>{}</strong></p>\n", escape(finding));
  page += "<h2>" + chart_title + "</h2>\n" + chart;
  page += "<h2>Comparison</h2>\n<pre id=\"table\">" + escape(table) + "</pre>\n";
  page += "</body></html>\n";
  return page;
}

std::string render_html(const Comparison& c) {
  return comparison_page("openloop compare",
                         "table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;"
                         "text-align:right}td:first-child,th:first-child{text-align:left}.increased{color:#b00}"
                         ".decreased{color:#070}",
                         c.baseline_source, c.candidate_source, c.finding, "Response time by percentile", chart(c),
                         render_text(c));
}

}  // namespace openloop::compare
