#include "syntax/nfkc.h"
#include "base/utf8.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace pykern::syntax {

namespace {

struct Decomposition {
  char32_t code_point;
  uint16_t first;  // into decomposition_pool
  uint8_t length;
};
struct CombiningClass {
  char32_t code_point;
  uint8_t value;
};
struct Composition {
  char32_t first, second, composed;
};

#include "syntax/nfkc_tables.inc"

// Hangul syllables decompose and compose by arithmetic (Unicode 3.12), not by table.
constexpr char32_t hangul_base = 0xAC00, lead_base = 0x1100, vowel_base = 0x1161, trail_base = 0x11A7;
constexpr char32_t lead_count = 19, vowel_count = 21, trail_count = 28;
constexpr char32_t syllable_count = lead_count * vowel_count * trail_count;

std::vector<char32_t> decode(std::string_view utf8) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < utf8.size();) {
    auto byte = static_cast<unsigned char>(utf8[i]);
    size_t length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    if (i + length > utf8.size()) length = 1;
    char32_t cp = length == 1 ? byte : byte & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    out.push_back(cp);
    i += length;
  }
  return out;
}

void encode(char32_t cp, std::string& out) { append_utf8(out, static_cast<uint32_t>(cp)); }

uint8_t combining_class(char32_t cp) {
  auto found = std::lower_bound(std::begin(combining_classes), std::end(combining_classes), cp,
                                [](const CombiningClass& entry, char32_t value) { return entry.code_point < value; });
  return found != std::end(combining_classes) && found->code_point == cp ? found->value : 0;
}

// Full compatibility decomposition (the tables hold it already applied recursively).
void decompose(char32_t cp, std::vector<char32_t>& out) {
  if (cp >= hangul_base && cp < hangul_base + syllable_count) {
    char32_t index = cp - hangul_base;
    out.push_back(lead_base + index / (vowel_count * trail_count));
    out.push_back(vowel_base + (index % (vowel_count * trail_count)) / trail_count);
    if (index % trail_count != 0) out.push_back(trail_base + index % trail_count);
    return;
  }
  auto found = std::lower_bound(std::begin(decompositions), std::end(decompositions), cp,
                                [](const Decomposition& entry, char32_t value) { return entry.code_point < value; });
  if (found == std::end(decompositions) || found->code_point != cp) {
    out.push_back(cp);
    return;
  }
  out.insert(out.end(), decomposition_pool + found->first, decomposition_pool + found->first + found->length);
}

// Marks between two starters sort by combining class, stably (canonical ordering).
void reorder(std::vector<char32_t>& text) {
  for (size_t begin = 0; begin < text.size();) {
    if (combining_class(text[begin]) == 0) {
      ++begin;
      continue;
    }
    size_t end = begin;
    while (end < text.size() && combining_class(text[end]) != 0) ++end;
    std::stable_sort(text.begin() + static_cast<std::ptrdiff_t>(begin), text.begin() + static_cast<std::ptrdiff_t>(end),
                     [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    begin = end;
  }
}

char32_t compose_pair(char32_t first, char32_t second) {
  if (first >= lead_base && first < lead_base + lead_count && second >= vowel_base && second < vowel_base + vowel_count)
    return hangul_base + ((first - lead_base) * vowel_count + (second - vowel_base)) * trail_count;
  if (first >= hangul_base && first < hangul_base + syllable_count && (first - hangul_base) % trail_count == 0 &&
      second > trail_base && second < trail_base + trail_count)
    return first + (second - trail_base);
  auto found = std::lower_bound(std::begin(compositions), std::end(compositions), std::make_pair(first, second),
                                [](const Composition& entry, std::pair<char32_t, char32_t> value) {
                                  return std::make_pair(entry.first, entry.second) < value;
                                });
  if (found != std::end(compositions) && found->first == first && found->second == second) return found->composed;
  return 0;
}

// Canonical composition (Unicode 3.11, D117): each mark or starter joins the last starter unless
// a character of the same or a higher class, or a starter, stands between them.
void compose(std::vector<char32_t>& text) {
  if (text.empty()) return;
  size_t starter = 0, kept = 1;
  int last_class = combining_class(text[0]) == 0 ? -1 : 256;
  if (last_class != -1) starter = SIZE_MAX;
  for (size_t i = 1; i < text.size(); ++i) {
    char32_t cp = text[i];
    int cls = combining_class(cp);
    bool blocked = last_class != -1 && (last_class >= cls || last_class == 0);
    if (starter != SIZE_MAX && !blocked) {
      if (char32_t composed = compose_pair(text[starter], cp)) {
        text[starter] = composed;
        continue;
      }
    }
    if (cls == 0) {
      starter = kept;
      last_class = -1;
    } else {
      last_class = cls;
    }
    text[kept++] = cp;
  }
  text.resize(kept);
}

}  // namespace

std::string nfkc_identifier(std::string_view utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(utf8);
  std::vector<char32_t> text;
  for (char32_t cp : decode(utf8)) decompose(cp, text);
  reorder(text);
  compose(text);
  std::string out;
  for (char32_t cp : text) encode(cp, out);
  return out;
}

}  // namespace pykern::syntax
