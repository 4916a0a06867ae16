#pragma once
// Greedy key selection, shared by reduce and fit: from each kept key i, the
// farthest key j that `fits(i, j, kept)` says may follow it, found by galloping
// (j = i + 2, i + 4, i + 8, ...) then bisecting between the last fit and the
// first miss. O(log run) checks per kept key, so n log n over a track when a
// check costs the run's length, never a check per candidate over the whole run.
// j = i + 1 is always taken (the original segment; the caller's final check
// reports it if even that misses).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gltf_anim::repair {

template <class Fits>  // bool(std::size_t i, std::size_t j, const std::vector<std::size_t>& kept)
std::vector<std::size_t> greedy_keys(std::size_t n, Fits&& fits) {
  std::vector<std::size_t> kept{0};
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t good = i + 1, bad = n;  // bad: the nearest end known not to fit
    std::size_t reach = 1;
    while (good + 1 < n) {
      reach *= 2;
      const std::size_t j = std::min(n - 1, i + reach);
      if (!fits(i, j, kept)) {
        bad = j;
        break;
      }
      good = j;
    }
    while (bad < n && bad - good > 1) {
      const std::size_t mid = good + (bad - good) / 2;
      if (fits(i, mid, kept)) {
        good = mid;
      } else {
        bad = mid;
      }
    }
    kept.push_back(good);
    i = good;
  }
  return kept;
}

}  // namespace gltf_anim::repair
