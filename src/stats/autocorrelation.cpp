// Autocorrelation by FFT (Wiener-Khinchin on a zero-padded sequence), on ranks, and the effective sample
// size.
#include "stats/autocorrelation.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>

namespace openloop::stats {

namespace {
// The twiddle factors of a real sequence's FFT by a complex one of size m (a power of two).
struct Twiddles {
  /// exp(−iπk/m) for k < m: the real transform's untangling factors. Half computed, half by the quarter turn
  /// exp(−iπ/2).
  std::vector<std::complex<double>> half_turns;
  /// Each stage's together, read in order so they stay in the cache: those of the stage of length len,
  /// exp(−2πik/len) = half_turns[k · 2m/len] for k < len/2, at [len/2, len).
  std::vector<std::complex<double>> stages;

  explicit Twiddles(std::size_t m) : half_turns(m), stages(std::max<std::size_t>(m, 1)) {
    const std::size_t half = std::max<std::size_t>(1, m / 2);
    for (std::size_t k = 0; k < half; ++k) {
      const double angle = std::numbers::pi * static_cast<double>(k) / static_cast<double>(m);
      half_turns[k] = {std::cos(angle), -std::sin(angle)};
    }
    for (std::size_t k = half; k < m; ++k)
      half_turns[k] = {half_turns[k - half].imag(), -half_turns[k - half].real()};
    for (std::size_t h = 1; h < m; h <<= 1)
      for (std::size_t k = 0; k < h; ++k) stages[h + k] = half_turns[k * (m / h)];
  }
};

// In-place iterative radix-2 forward FFT; a.size() = m is a power of two and t = Twiddles(m). Each twiddle is
// read from the table, not made by a recurrence from the one before.
void fft(std::vector<std::complex<double>>& a, const Twiddles& t) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; (j & bit) != 0; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  // As arrays of (real, imaginary) doubles: through std::complex the compiler staged each product on the
  // stack, and the two 8-byte stores read back as one 16-byte load stalled (3× slower, measured).
  double* d = reinterpret_cast<double*>(a.data());
  const double* w = reinterpret_cast<const double*>(t.stages.data());
  // The butterflies of the stages of length len over [from, to) (a multiple of len).
  const auto stage = [&](std::size_t len, std::size_t from, std::size_t to) {
    const std::size_t half = len / 2;
    const double* wl = w + 2 * half;
    for (std::size_t i = from; i < to; i += len) {
      for (std::size_t k = 0; k < half; ++k) {
        double* p = d + 2 * (i + k);
        double* q = p + 2 * half;
        const double wr = wl[2 * k], wi = wl[2 * k + 1];
        const double vr = q[0] * wr - q[1] * wi, vi = q[0] * wi + q[1] * wr;
        const double ur = p[0], ui = p[1];
        p[0] = ur + vr;
        p[1] = ui + vi;
        q[0] = ur - vr;
        q[1] = ui - vi;
      }
    }
  };
  // The stages up to a block's length touch only that block: all of them block by block, while it is in the
  // cache, then the longer stages over the whole array (on 2^18 points, 4 passes over memory instead of 18).
  const std::size_t block = std::min<std::size_t>(n, std::size_t{1} << 13);
  for (std::size_t from = 0; from < n; from += block)
    for (std::size_t len = 2; len <= block; len <<= 1) stage(len, from, from + block);
  for (std::size_t len = 2 * block; len <= n; len <<= 1) stage(len, 0, n);
}

// The spectrum A[0..N/2] of a real sequence of even length N = 2m, by one complex FFT of size m: the even
// samples as real parts, the odd ones as imaginary parts, then untangled (A[N - k] = conj(A[k]) gives the
// rest). t = Twiddles(m).
std::vector<std::complex<double>> real_fft(const std::vector<double>& a, const Twiddles& t) {
  const std::size_t m = a.size() / 2;
  std::vector<std::complex<double>> z(m);
  for (std::size_t j = 0; j < m; ++j) z[j] = {a[2 * j], a[2 * j + 1]};
  fft(z, t);
  std::vector<std::complex<double>> out(m + 1);
  for (std::size_t k = 0; k <= m; ++k) {
    const std::complex<double> zk = z[k % m], zc = std::conj(z[(m - k) % m]);
    const std::complex<double> even = (zk + zc) * 0.5, odd = (zk - zc) * std::complex<double>(0, -0.5);
    const std::complex<double> w = k < m ? t.half_turns[k] : std::complex<double>(-1, 0);  // exp(−iπk/m)
    out[k] = {even.real() + w.real() * odd.real() - w.imag() * odd.imag(),
              even.imag() + w.real() * odd.imag() + w.imag() * odd.real()};
  }
  return out;
}

// Extends acf, ρ at lags 0 .. acf.size() − 1 of the centred sequence d (Σ d² = c0), to lags 0 .. lags
// (< d.size()) by direct sums, O(n) a lag: for a few lags far cheaper than the FFT's transforms of the padded
// sequence. The same estimator as autocorrelation() (to rounding).
void add_lags(std::span<const double> d, double c0, std::size_t lags, std::vector<double>& acf) {
  const std::size_t n = d.size();
  for (std::size_t k = acf.size(); k <= lags; ++k) {
    double s[4] = {0, 0, 0, 0};  // four independent sums, so the additions need not wait for each other
    std::size_t i = 0;
    for (; i + 4 <= n - k; i += 4)
      for (std::size_t j = 0; j < 4; ++j) s[j] += d[i + j] * d[i + j + k];
    for (; i < n - k; ++i) s[0] += d[i] * d[i + k];
    acf.push_back(c0 > 0 ? (s[0] + s[1] + s[2] + s[3]) / c0 : 0.0);
  }
}

// initial_monotone_tau, and whether its pairs turned non-positive within acf (so more lags would not change
// it).
double monotone_tau(std::span<const double> acf, bool& ended) {
  double tau = -1, previous = std::numeric_limits<double>::infinity();
  ended = false;
  for (std::size_t m = 0; 2 * m + 1 < acf.size(); ++m) {
    const double pair = std::min(previous, acf[2 * m] + acf[2 * m + 1]);
    if (!(pair > 0)) {
      ended = true;
      break;
    }
    tau += 2 * pair;
    previous = pair;
  }
  return std::max(tau, 1.0);
}

// Lags computed by direct sums, in stages, before falling back to the FFT of every lag: independent samples
// (a run below capacity) mostly settle at lag 1, lightly correlated ones within 32.
constexpr std::size_t k_direct_lags[] = {4, 32};
}  // namespace

double initial_monotone_tau(std::span<const double> acf) {
  bool ended = false;
  return monotone_tau(acf, ended);
}

double student_t_975(double df) {
  // Cornish-Fisher expansion of Student's t quantile around the normal one (Abramowitz & Stegun 26.7.5):
  // within 0.1 % of the tables from 5 degrees of freedom.
  const double z = 1.959963984540054, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
}

double batch_means_tau(std::span<const double> x, std::size_t batches) {
  const std::size_t n = x.size();
  if (batches < 2 || n < 2 * batches) return 1;
  const std::size_t length = n / batches, used = length * batches;
  const double mean = std::accumulate(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(used), 0.0) /
                      static_cast<double>(used);
  double within = 0, between = 0;
  for (std::size_t b = 0; b < batches; ++b) {
    double sum = 0;
    for (std::size_t i = b * length; i < (b + 1) * length; ++i) {
      sum += x[i];
      within += (x[i] - mean) * (x[i] - mean);
    }
    const double m = sum / static_cast<double>(length) - mean;
    between += m * m;
  }
  const double var = within / static_cast<double>(used - 1);
  if (!(var > 0)) return 1;
  const double var_batch = between / static_cast<double>(batches - 1);
  const double t = student_t_975(static_cast<double>(batches - 1)), z = 1.959963984540054;
  return std::max(1.0, static_cast<double>(length) * var_batch / var * (t / z) * (t / z));
}

double Autocorrelation::widening() const {
  if (!(effective_n > 0)) return 1;
  return std::sqrt(static_cast<double>(n) / effective_n);
}

std::vector<double> ranks(std::span<const double> x) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double average = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = average;
    i = j + 1;
  }
  return r;
}

std::vector<double> autocorrelation(std::span<const double> x, std::size_t max_lag) {
  const std::size_t n = x.size();
  std::vector<double> out(std::min(max_lag, n == 0 ? 0 : n - 1) + 1, 0.0);
  if (n == 0) return out;
  out[0] = 1;
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  // Zero padding to n + the largest lag wanted is enough for no product to wrap around (lag k pairs i with
  // i + k < n + max_lag <= size): up to half the transform that padding to 2n takes. Both transforms are of
  // real sequences, each done by a complex FFT of half the size (real_fft): the power spectrum is real and
  // even, so its transform back is the real part of its forward one, and only the lags up to max_lag are
  // kept.
  std::size_t size = 2;
  while (size < n + out.size() - 1) size <<= 1;
  std::vector<double> a(size, 0.0);
  for (std::size_t i = 0; i < n; ++i) a[i] = x[i] - mean;
  const Twiddles t(size / 2);
  const std::vector<std::complex<double>> spectrum = real_fft(a, t);
  for (std::size_t k = 0; k < spectrum.size(); ++k) a[k] = std::norm(spectrum[k]);
  for (std::size_t k = spectrum.size(); k < size; ++k) a[k] = a[size - k];
  const std::vector<std::complex<double>> back = real_fft(a, t);
  const double c0 = back[0].real();
  if (!(c0 > 0)) return out;
  for (std::size_t k = 1; k < out.size(); ++k) out[k] = back[k].real() / c0;
  return out;
}

namespace {
// The result from ρ at lags 0 .. acf.size() − 1 (of max_lag wanted), or nothing when more lags could change
// it: ρ has not yet fallen to the threshold, or (batch means) Geyer's pairs are still positive.
std::optional<Autocorrelation> settle(std::span<const double> x, const std::vector<double>& acf,
                                      std::size_t max_lag, bool batch_means) {
  Autocorrelation a;
  a.n = x.size();
  a.threshold = 1.96 / std::sqrt(static_cast<double>(a.n));
  const bool every_lag = acf.size() > max_lag;
  double sum = 0;
  a.vanished = false;
  for (std::size_t k = 1; k < acf.size(); ++k) {
    a.rho.push_back(acf[k]);
    if (std::abs(acf[k]) <= a.threshold) {
      a.vanished = true;
      a.vanish_lag = k;
      break;
    }
    sum += acf[k];
  }
  if (!a.vanished && !every_lag) return std::nullopt;
  if (!a.vanished) a.vanish_lag = max_lag + 1;
  double tau = 1.0 + 2.0 * sum;
  if (a.vanish_lag > 1 && batch_means) {
    bool ended = false;
    tau = std::max(tau, monotone_tau(acf, ended));
    if (!ended && !every_lag) return std::nullopt;
    const auto batches =
        static_cast<std::size_t>(std::clamp(static_cast<double>(a.n) / (25 * tau), 10.0, 30.0));
    tau = std::max(tau, batch_means_tau(x, batches));
  }
  a.effective_n = std::clamp(static_cast<double>(a.n) / tau, 1.0, static_cast<double>(a.n));
  return a;
}
}  // namespace

Autocorrelation serial_autocorrelation(std::span<const double> x, std::size_t max_lag, bool batch_means) {
  if (x.size() < 3) {
    Autocorrelation a;
    a.n = x.size();
    a.effective_n = static_cast<double>(a.n);
    return a;
  }
  max_lag = std::clamp<std::size_t>(max_lag, 1, x.size() - 1);
  // The first lags by direct sums, on the sequence centred once and extended stage by stage; every lag by FFT
  // only when those do not settle it.
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
  std::vector<double> d(x.size());
  double c0 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d[i] = x[i] - mean;
    c0 += d[i] * d[i];
  }
  std::vector<double> acf{1.0};
  for (const std::size_t lags : k_direct_lags) {
    add_lags(d, c0, std::min(max_lag, lags), acf);
    if (auto a = settle(x, acf, max_lag, batch_means)) return *a;
  }
  return *settle(x, autocorrelation(x, max_lag), max_lag, batch_means);
}

Autocorrelation rank_autocorrelation(std::span<const double> x, std::size_t max_lag, bool batch_means) {
  return serial_autocorrelation(ranks(x), max_lag, batch_means);
}

}  // namespace openloop::stats
