// Loading one column of a CSV file (RFC 4180: commas, double quotes, "" escapes, LF or CRLF) for csv()
// variables.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::workload {

/// Reads `path` once and returns the values of `column` in file order, one per data row. The first row is the
/// header; `column` is a header name, or a 0-based position when it is all digits and no header has that
/// name. Blank lines are skipped. Errors (usage) begin with `what` and name the path, and for a row the line:
/// file unreadable, no header, column not found (the message lists the header's names), a row too short to
/// have the column, an unterminated quote, no data rows.
Result<std::vector<std::string>> load_csv_column(const std::string& path, std::string_view column,
                                                 std::string_view what);

}  // namespace openloop::workload
