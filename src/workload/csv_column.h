// Loading a CSV file (RFC 4180: commas, double quotes, "" escapes, LF or CRLF): one column for csv()
// variables, or the whole table for a scenario's per-session data rows.
#pragma once

#include <cstddef>
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

/// A whole CSV file: its header's names and its data rows, each with exactly the header's number of fields.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::string> cells;  ///< rows × header.size(), row-major
  std::size_t rows() const { return header.empty() ? 0 : cells.size() / header.size(); }
  std::string_view cell(std::size_t row, std::size_t column) const {
    return cells[row * header.size() + column];
  }
};

/// Reads `path` once, whole. Blank lines are skipped. Errors (usage) begin with `what` and name the path, and
/// for a row its line: file unreadable, no header, a header name given twice, a row whose field count is not
/// the header's, an unterminated quote, no data rows.
Result<CsvTable> load_csv_table(const std::string& path, std::string_view what);

}  // namespace openloop::workload
