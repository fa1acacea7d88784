// A terminal table whose columns are as wide as their widest cell, so a huge change (+12,345 %) or a long
// interval never pushes the columns after it out of line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace openloop::compare {

/// Rows of cells rendered as aligned text. Every row has as many cells as there are columns; the last
/// column is left unpadded (no trailing spaces).
class TextTable {
 public:
  enum class Align : unsigned char { left, right };
  /// One column: its alignment, the spaces written before it (none before the first) and its least width.
  struct Column {
    Align align = Align::right;
    std::size_t gap = 1;
    std::size_t min_width = 0;
  };
  explicit TextTable(std::vector<Column> columns) : m_columns(std::move(columns)) {}

  /// A row; missing cells are empty, extra cells are dropped.
  void add(std::vector<std::string> cells);
  /// Each row on a line ending in '\n' (trailing spaces trimmed); a column is as wide as its widest cell (in
  /// UTF-8 code points, so "µs" and "×" count as one column each) and at least its min_width.
  std::string render() const;

 private:
  std::vector<Column> m_columns;
  std::vector<std::vector<std::string>> m_rows;
};

/// Display columns of `s`: its UTF-8 code points (every character we print is one column wide).
std::size_t display_width(std::string_view s);

}  // namespace openloop::compare
