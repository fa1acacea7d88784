// Traces sorted by time in chunks and merged (workload/trace_sort.h).
#include "workload/trace_sort.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "net/errno_text.h"

namespace openloop::workload {
namespace {

struct Line {
  std::int64_t t;
  std::uint64_t seq;
  std::string text;
};

bool before(const Line& a, const Line& b) {
  return a.t != b.t ? a.t < b.t : a.seq < b.seq;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Result<void> io_error(std::string_view what) {
  const int err = errno;
  return runtime_error(fmt::format("trace sort: {} a temporary file failed: {} (TMPDIR names where they go)",
                                   what, net::errno_text(err)));
}

// A spilled chunk: records as [t int64][seq uint64][length uint64][text], in order; read back one at a time.
class Chunk {
 public:
  static Result<Chunk> spill(std::vector<Line>& lines) {
    File f(std::tmpfile());  // unlinked at once: nothing is left behind, whatever happens
    if (!f) return tl::unexpected(io_error("creating").error());
    for (const auto& l : lines) {
      const std::uint64_t header[3] = {static_cast<std::uint64_t>(l.t), l.seq, l.text.size()};
      if (std::fwrite(header, sizeof header, 1, f.get()) != 1 ||
          (!l.text.empty() && std::fwrite(l.text.data(), l.text.size(), 1, f.get()) != 1))
        return tl::unexpected(io_error("writing").error());
    }
    if (std::fflush(f.get()) != 0 || std::fseek(f.get(), 0, SEEK_SET) != 0)
      return tl::unexpected(io_error("writing").error());
    Chunk c;
    c.m_file = std::move(f);
    return c;
  }

  /// The next line into `out`: true, or false at the chunk's end.
  Result<bool> read(Line& out) {
    std::uint64_t header[3];
    if (std::fread(header, sizeof header, 1, m_file.get()) != 1) {
      if (std::ferror(m_file.get()) != 0) return tl::unexpected(io_error("reading").error());
      return false;
    }
    out.t = static_cast<std::int64_t>(header[0]);
    out.seq = header[1];
    out.text.resize(header[2]);
    if (header[2] > 0 && std::fread(out.text.data(), header[2], 1, m_file.get()) != 1)
      return tl::unexpected(io_error("reading").error());
    return true;
  }

 private:
  File m_file;
};

}  // namespace

Result<TraceSortCounts> sort_trace(TraceReader& reader, const TraceSortLimits& limits,
                                   const std::function<Result<void>(std::string_view line)>& write) {
  TraceSortCounts counts;
  std::vector<Line> held;
  std::vector<Chunk> chunks;
  std::size_t held_bytes = 0;
  std::uint64_t seq = 0;
  std::int64_t newest = 0;
  TraceRecord record;
  const auto spill = [&]() -> Result<void> {
    if (chunks.size() == limits.max_chunks) {
      return usage_error(fmt::format(
          "trace sort: the trace needs more than {} chunks of {} MiB; the sort's limit is {} MiB of trace",
          limits.max_chunks, limits.chunk_bytes >> 20, (limits.max_chunks * limits.chunk_bytes) >> 20));
    }
    std::stable_sort(held.begin(), held.end(), before);
    chunks.push_back(OPENLOOP_TRY(Chunk::spill(held)));
    held.clear();
    held_bytes = 0;
    return {};
  };
  while (OPENLOOP_TRY(reader.next(record))) {
    const std::int64_t t = record.t.count();
    if (seq > 0 && t < newest) ++counts.out_of_order;
    newest = seq == 0 ? t : std::max(newest, t);
    held.push_back(Line{t, seq++, reader.unit_text()});
    held_bytes += reader.unit_text().size() + sizeof(Line);
    if (held_bytes >= limits.chunk_bytes) OPENLOOP_TRY_VOID(spill());
  }
  counts.records = seq;
  if (chunks.empty()) {
    std::stable_sort(held.begin(), held.end(), before);
    for (const auto& l : held) OPENLOOP_TRY_VOID(write(l.text));
    return counts;
  }
  if (!held.empty()) OPENLOOP_TRY_VOID(spill());
  counts.chunks = chunks.size();
  // Merge: the smallest head of every chunk next (a heap of chunk indexes).
  std::vector<Line> heads(chunks.size());
  std::vector<std::size_t> heap;
  for (std::size_t i = 0; i < chunks.size(); ++i)
    if (OPENLOOP_TRY(chunks[i].read(heads[i]))) heap.push_back(i);
  const auto later = [&](std::size_t a, std::size_t b) { return before(heads[b], heads[a]); };
  std::make_heap(heap.begin(), heap.end(), later);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later);
    const std::size_t i = heap.back();
    OPENLOOP_TRY_VOID(write(heads[i].text));
    if (OPENLOOP_TRY(chunks[i].read(heads[i]))) {
      std::push_heap(heap.begin(), heap.end(), later);
    } else {
      heap.pop_back();
    }
  }
  return counts;
}

}  // namespace openloop::workload
