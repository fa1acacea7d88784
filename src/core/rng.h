// Fast, seedable random numbers (xoshiro256++ seeded by splitmix64); deterministic across platforms.
#pragma once

#include <cmath>
#include <cstdint>

namespace openloop {

/// splitmix64 step: used to expand one seed into independent streams.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// xoshiro256++. Not thread-safe: one per worker/stream. Same seed and stream, same sequence.
class Rng {
 public:
  /// stream selects an independent sequence for the same seed (e.g. one per worker shard).
  explicit Rng(std::uint64_t seed = 1, std::uint64_t stream = 0) {
    std::uint64_t sm = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (auto& s : m_s) s = splitmix64(sm);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }

  /// Uniform in [0, 1), 53 bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in (0, 1]: safe for log().
  double uniform_open0() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }
  /// Exponential with mean 1.
  double exponential() { return -std::log(uniform_open0()); }
  /// Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-64·n).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t m_s[4];
};

}  // namespace openloop
