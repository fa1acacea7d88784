// Column widths from the cells, then each row padded to them.
#include "compare/text_table.h"

#include <algorithm>

namespace openloop::compare {

std::size_t display_width(std::string_view s) {
  // A UTF-8 continuation byte is 10xxxxxx: count every other byte.
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void TextTable::add(std::vector<std::string> cells) {
  cells.resize(m_columns.size());
  m_rows.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> widths;
  for (const Column& c : m_columns) widths.push_back(c.min_width);
  for (const auto& row : m_rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  std::string out;
  for (const auto& row : m_rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const Column& c = m_columns[i];
      if (i > 0) line.append(c.gap, ' ');
      const std::size_t pad = widths[i] - display_width(row[i]);
      if (c.align == Align::right) line.append(pad, ' ');
      line += row[i];
      if (c.align == Align::left) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace openloop::compare
