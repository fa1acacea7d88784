// Parking whole intervals as binary records and reading them back.
#include "results/recording/interval_series.h"

#include <cstring>
#include <type_traits>

#include <fmt/format.h>

namespace openloop::results {

namespace {

// "OLI1": a record of this layout; another value means the bytes are not one of ours.
constexpr std::uint32_t k_record_magic = 0x31494c4f;

class RecordWriter {
 public:
  template <class T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    m_out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void text(std::string_view s) {
    pod(static_cast<std::uint32_t>(s.size()));
    m_out.append(s);
  }
  template <class T>
  void pods(const std::vector<T>& v) {
    pod(static_cast<std::uint32_t>(v.size()));
    for (const T& x : v) pod(x);
  }
  std::string take() { return std::move(m_out); }

 private:
  std::string m_out;
};

class RecordReader {
 public:
  explicit RecordReader(std::string_view in) : m_in(in) {}
  template <class T>
  void pod(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (m_in.size() < sizeof v) {
      m_ok = false;
      return;
    }
    std::memcpy(&v, m_in.data(), sizeof v);
    m_in.remove_prefix(sizeof v);
  }
  void text(EncodedHistogram& h) {
    std::uint32_t n = 0;
    pod(n);
    if (!m_ok || m_in.size() < n) {
      m_ok = false;
      return;
    }
    h = std::string(m_in.substr(0, n));
    m_in.remove_prefix(n);
  }
  template <class T>
  void pods(std::vector<T>& v) {
    std::uint32_t n = 0;
    pod(n);
    if (!m_ok || m_in.size() / sizeof(T) < n) {
      m_ok = false;
      return;
    }
    v.resize(n);
    for (T& x : v) pod(x);
  }
  bool ok() const { return m_ok && m_in.empty(); }

 private:
  std::string_view m_in;
  bool m_ok = true;
};

// One list of the fields, so writing and reading cannot disagree: `io` is a RecordWriter or a RecordReader.
template <class IO, class Interval>
void fields(IO& io, Interval& r) {
  io.pod(r.start_s);
  io.pod(r.length_s);
  io.pod(r.counters);
  io.pod(r.response_time);
  io.pod(r.service_time);
  io.pod(r.send_lateness);
  io.pod(r.attempt_time);
  io.pod(r.session_time);
  io.pod(r.slot_wait);
  io.pod(r.server_time);
  io.pod(r.outside_server);
  io.pod(r.flows);
  io.pod(r.server_timing_negative);
  io.pod(r.server_timing_malformed);
  io.pod(r.server_timing_no_duration);
  io.pod(r.coalesce_us);
  io.pods(r.by_request);
  io.pods(r.observed);
}

template <class Interval, class F>
void for_each_histogram(Interval& r, F f) {
  f(r.response_time_hist);
  f(r.service_time_hist);
  f(r.send_lateness_hist);
  f(r.attempt_time_hist);
  f(r.session_time_hist);
  f(r.slot_wait_hist);
  f(r.server_time_hist);
  f(r.outside_server_hist);
}

}  // namespace

std::string encode_interval(const IntervalResult& r) {
  RecordWriter w;
  w.pod(k_record_magic);
  fields(w, r);
  for_each_histogram(r, [&w](const EncodedHistogram& h) { w.text(h.text()); });
  return w.take();
}

std::optional<IntervalResult> decode_interval(std::string_view bytes) {
  RecordReader in(bytes);
  std::uint32_t magic = 0;
  in.pod(magic);
  if (magic != k_record_magic) return std::nullopt;
  IntervalResult r;
  fields(in, r);
  for_each_histogram(r, [&in](EncodedHistogram& h) { in.text(h); });
  if (!in.ok()) return std::nullopt;
  return r;
}

IntervalSeries::IntervalSeries(std::vector<IntervalResult> all) {
  for (auto& r : all) push_back(std::move(r));
}

Result<IntervalResult> IntervalSeries::at(std::size_t k) const {
  if (k >= m_index.size()) return m_resident[k - m_index.size()];
  const Record& record = m_index[k];
  const std::string bytes = OPENLOOP_TRY(m_file->read(record.offset, static_cast<std::size_t>(record.size)));
  auto r = decode_interval(bytes);
  if (!r) {
    return runtime_error(
        fmt::format("interval {}: the record read back from the interval spill file does not decode "
                    "({} bytes at offset {})",
                    k, record.size, record.offset));
  }
  return std::move(*r);
}

IntervalResult IntervalSeries::operator[](std::size_t k) const {
  auto r = at(k);
  if (!r) {
    m_file->note_failure(r.error().message);
    return {};
  }
  return std::move(*r);
}

void IntervalSeries::push_back(IntervalResult r) {
  m_total_length_s += r.length_s;
  m_resident.push_back(std::move(r));
}

Result<void> IntervalSeries::set(std::size_t k, IntervalResult r) {
  if (k >= m_index.size()) {
    IntervalResult& into = m_resident[k - m_index.size()];
    m_total_length_s += r.length_s - into.length_s;
    into = std::move(r);
    return {};
  }
  const std::string bytes = encode_interval(r);
  const std::int64_t offset = OPENLOOP_TRY(m_file->append(bytes));
  m_total_length_s += r.length_s - (*this)[k].length_s;
  m_index[k] = {offset, static_cast<std::int64_t>(bytes.size())};
  return {};
}

void IntervalSeries::clear() {
  m_index.clear();
  m_resident.clear();
  m_total_length_s = 0;
}

void IntervalSeries::resize(std::size_t n) {
  while (m_resident.size() > n) {
    m_total_length_s -= m_resident.back().length_s;
    m_resident.pop_back();
  }
  while (m_resident.size() < n) push_back(IntervalResult{});
}

Result<void> IntervalSeries::park(const std::shared_ptr<SpillFile>& file, std::size_t keep) {
  if (m_file && file != m_file)
    return runtime_error("internal error: an interval series parks in one spill file only");
  while (m_resident.size() > keep) {
    const std::string bytes = encode_interval(m_resident.front());
    const std::int64_t offset = OPENLOOP_TRY(file->append(bytes));
    m_file = file;
    m_index.push_back({offset, static_cast<std::int64_t>(bytes.size())});
    m_resident.pop_front();
  }
  return {};
}

std::size_t IntervalSeries::resident_bytes() const {
  std::size_t n = m_index.capacity() * sizeof(Record);
  for (const IntervalResult& r : m_resident) {
    n += sizeof r + r.by_request.capacity() * sizeof(Counters) + r.observed.capacity() * sizeof(double);
    for_each_histogram(r, [&n](const EncodedHistogram& h) { n += h.resident_bytes(); });
  }
  return n;
}

}  // namespace openloop::results
