// A small strict RFC 4180 reader: splits the file into rows of fields, then picks one column.
#include "workload/csv_column.h"

#include <algorithm>
#include <cctype>
#include <cstddef>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/atomic_file.h"

namespace openloop::workload {
namespace {

struct Row {
  std::size_t line;  ///< 1-based line where the row starts
  std::vector<std::string> fields;
};

// Reads one row starting at `pos` (advanced past its line end). Returns false on an unterminated quote.
bool read_row(std::string_view text, std::size_t& pos, std::size_t& line, Row& row) {
  row.line = line;
  row.fields.assign(1, std::string());
  bool quoted = false;
  while (pos < text.size()) {
    const char c = text[pos++];
    if (quoted) {
      if (c == '"' && pos < text.size() && text[pos] == '"') {
        row.fields.back() += '"';
        ++pos;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        row.fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.fields.emplace_back();
    } else if (c == '\n') {
      ++line;
      break;
    } else if (c != '\r' || pos >= text.size() || text[pos] != '\n') {
      row.fields.back() += c;
    }
  }
  return !quoted;
}

bool is_blank(const Row& row) {
  return row.fields.size() == 1 && row.fields.front().empty();
}

Result<std::size_t> column_index(const Row& header, std::string_view column, const std::string& path,
                                 std::string_view what) {
  const auto named = std::find(header.fields.begin(), header.fields.end(), column);
  if (named != header.fields.end()) return static_cast<std::size_t>(named - header.fields.begin());
  const bool digits = !column.empty() && std::all_of(column.begin(), column.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (digits && column.size() < 6 && std::stoul(std::string(column)) < header.fields.size()) {
    return std::stoul(std::string(column));
  }
  return usage_error(fmt::format("{}: {}: no column \"{}\"; the header names {} (or give a 0-based position)",
                                 what, path, column, fmt::join(header.fields, ", ")));
}

// Calls row_fn(row) for every non-blank row of `text` in order; stops at the first error it returns.
template <class RowFn>
Result<void> for_each_row(std::string_view text, const std::string& path, std::string_view what,
                          RowFn row_fn) {
  std::size_t pos = 0;
  std::size_t line = 1;
  Row row;
  while (pos < text.size()) {
    if (!read_row(text, pos, line, row)) {
      return usage_error(
          fmt::format("{}: {}:{}: a quoted field is not closed; close it with \"", what, path, row.line));
    }
    if (is_blank(row)) continue;
    OPENLOOP_TRY_VOID(row_fn(row));
  }
  return {};
}

tl::unexpected<Error> empty_file(const std::string& path, std::string_view what) {
  return usage_error(
      fmt::format("{}: {}: the file is empty; a CSV file starts with a header row", what, path));
}

tl::unexpected<Error> no_rows(const std::string& path, std::string_view what) {
  return usage_error(fmt::format("{}: {}: no data rows after the header; add at least one row", what, path));
}

}  // namespace

Result<std::vector<std::string>> load_csv_column(const std::string& path, std::string_view column,
                                                 std::string_view what) {
  auto content = read_file(path);
  if (!content) return usage_error(fmt::format("{}: {}", what, content.error().message));
  std::vector<std::string> values;
  std::size_t index = 0;
  bool have_header = false;
  const auto on_row = [&](Row& row) -> Result<void> {
    if (!have_header) {
      index = OPENLOOP_TRY(column_index(row, column, path, what));
      have_header = true;
      return {};
    }
    if (index >= row.fields.size()) {
      return usage_error(
          fmt::format("{}: {}:{}: the row has {} field(s), too few for column \"{}\"; every row "
                      "needs the header's {} fields",
                      what, path, row.line, row.fields.size(), column, index + 1));
    }
    values.push_back(std::move(row.fields[index]));
    return {};
  };
  OPENLOOP_TRY_VOID(for_each_row(*content, path, what, on_row));
  if (!have_header) return empty_file(path, what);
  if (values.empty()) return no_rows(path, what);
  return values;
}

Result<CsvTable> load_csv_table(const std::string& path, std::string_view what) {
  auto content = read_file(path);
  if (!content) return usage_error(fmt::format("{}: {}", what, content.error().message));
  CsvTable table;
  const auto on_row = [&](Row& row) -> Result<void> {
    if (table.header.empty()) {
      for (std::size_t i = 0; i < row.fields.size(); ++i) {
        if (std::find(row.fields.begin(), row.fields.begin() + static_cast<std::ptrdiff_t>(i),
                      row.fields[i]) != row.fields.begin() + static_cast<std::ptrdiff_t>(i)) {
          return usage_error(fmt::format("{}: {}:{}: the header names \"{}\" twice; name each column once",
                                         what, path, row.line, row.fields[i]));
        }
      }
      table.header = std::move(row.fields);
      return {};
    }
    if (row.fields.size() != table.header.size()) {
      return usage_error(fmt::format("{}: {}:{}: the row has {} field(s); every row has the header's {} ({})",
                                     what, path, row.line, row.fields.size(), table.header.size(),
                                     fmt::join(table.header, ", ")));
    }
    for (std::string& f : row.fields) table.cells.push_back(std::move(f));
    return {};
  };
  OPENLOOP_TRY_VOID(for_each_row(*content, path, what, on_row));
  if (table.header.empty()) return empty_file(path, what);
  if (table.cells.empty()) return no_rows(path, what);
  return table;
}

}  // namespace openloop::workload
