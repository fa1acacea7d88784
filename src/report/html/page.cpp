// The shared head of openloop's standalone pages (report/html/page.h).
#include "report/html/page.h"

#include <fmt/format.h>

#include "report/html/assets.h"
#include "report/text_format.h"

namespace openloop::report::html {
namespace {

constexpr std::string_view k_csp =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

// Runs first, so an error in any later script is recorded.
constexpr std::string_view k_error_trap = R"JS((function () {
  var errors = [];
  function note(message) {
    errors.push(String(message));
    document.documentElement.setAttribute('data-errors', errors.join(' | '));
  }
  window.addEventListener('error', function (e) { note(e.message || 'script error'); });
  window.addEventListener('unhandledrejection', function (e) { note('unhandled rejection: ' + e.reason); });
  var original = console.error;
  console.error = function () { note(Array.prototype.join.call(arguments, ' ')); original.apply(console, arguments); };
})();)JS";

}  // namespace

std::string page_head(std::string_view title, std::string_view extra_css) {
  std::string head = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<script>{}</script>\n<style>{}</style>\n<style>{}</style>\n",
      k_csp, escape(title), k_error_trap, assets::uplot_css(), assets::report_css());
  if (!extra_css.empty()) head += fmt::format("<style>{}</style>\n", extra_css);
  head += "</head>\n";
  return head;
}

}  // namespace openloop::report::html
