#include "base/suggest.h"

#include <algorithm>

#include <fmt/format.h>

namespace pykern {

size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: Levenshtein plus the swap of two neighbours ("scael" → "scale").
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t replace = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> similar_names(const std::string& word, const std::vector<std::string>& candidates) {
  // A third of the word may be wrong (at least one character), as a typo is; further off, a
  // suggestion is noise. Names longer than any typo are not compared at all.
  size_t limit = std::max<size_t>(1, (word.size() + 1) / 3);
  if (word.size() > 200) return {};
  size_t best = limit + 1;
  std::vector<std::string> nearest;
  for (const std::string& candidate : candidates) {
    if (candidate == word || candidate.size() > 200) continue;
    size_t distance = edit_distance(word, candidate);
    if (distance > limit || distance > best) continue;
    if (distance < best) nearest.clear();
    best = distance;
    if (std::find(nearest.begin(), nearest.end(), candidate) == nearest.end()) nearest.push_back(candidate);
  }
  std::sort(nearest.begin(), nearest.end());
  if (nearest.size() > 2) nearest.resize(2);
  return nearest;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::vector<std::string> nearest = similar_names(word, candidates);
  if (nearest.empty()) return "";
  if (nearest.size() == 1) return fmt::format("did you mean '{}'?", nearest[0]);
  return fmt::format("did you mean '{}' or '{}'?", nearest[0], nearest[1]);
}

}  // namespace pykern
