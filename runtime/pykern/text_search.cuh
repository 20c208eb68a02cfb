// pykern runtime: str methods that search a part of a text, as Numba 0.68 computes them
// (numba/cpython/unicode.py): find, rfind, index, rindex, startswith and endswith with their
// start and end (a tuple of prefixes too), and strip, lstrip and rstrip with a set of
// characters. Indices count code points; none_index stands for an omitted or None bound.
// Also what print() and str() write for values of containers (Python's repr inside a list or
// tuple, the typed Dict's own {k: v}). sema/text_search.cpp and sema/text_print.cpp type the
// calls. Host builds only, as text.cuh.
#ifndef PYKERN_TEXT_SEARCH_CUH
#define PYKERN_TEXT_SEARCH_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/dict.cuh"
#include "pykern/errors.cuh"
#include "pykern/list.cuh"
#include "pykern/text.cuh"
#include "pykern/text_methods.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// ---- find, rfind, index, rindex ----
// Numba's generate_finder: the bounds adjusted as a slice's (a start past the end stays, and
// finds nothing), an empty needle found at start (find) or end (rfind).
inline i64 str_find_in(const str& s, const str& sub, i64 start, i64 end, bool right) {
  adjust_indices(s.length, start, end);
  if (end - start < sub.length) return -1;
  if (sub.length == 0) return right ? end : start;
  i64 from = byte_offset(s, start), to = byte_offset(s, end);
  // UTF-8 is self-synchronising: a byte match of a whole text starts on a code point.
  for (i64 k = 0; k + sub.size <= to - from; ++k) {
    i64 at = right ? to - sub.size - k : from + k;
    i64 i = 0;
    while (i < sub.size && s.bytes[at + i] == sub.bytes[i]) ++i;
    if (i == sub.size) return count_code_points(s.bytes, at);
  }
  return -1;
}
// s.index(sub, start, end) / s.rindex(...): the same, a ValueError where absent.
inline i64 str_index_in(const char* file, int line, const str& s, const str& sub, i64 start, i64 end, bool right) {
  i64 at = str_find_in(s, sub, start, end, right);
  if (at < 0) report_failure(file, line, "ValueError", "substring not found");
  return at;
}

// ---- startswith, endswith ----
// Whether `part` is at the start (or the end) of s[start:end], the bounds adjusted as find's.
inline bool str_starts(const str& s, const str& part, i64 start, i64 end, bool at_end) {
  adjust_indices(s.length, start, end);
  if (end - start < part.length) return false;
  if (part.length == 0) return true;
  i64 from = at_end ? byte_offset(s, end) - part.size : byte_offset(s, start);
  for (i64 i = 0; i < part.size; ++i)
    if (s.bytes[from + i] != part.bytes[i]) return false;
  return true;
}
// A tuple of them: whether any one is there, tried in order.
inline bool str_starts(const str&, const tuple<>&, i64, i64, bool) { return false; }
template <class... T> bool str_starts(const str& s, const tuple<str, T...>& parts, i64 start, i64 end, bool at_end) {
  return str_starts(s, parts.head, start, end, at_end) || str_starts(s, parts.tail, start, end, at_end);
}

// ---- strip, lstrip, rstrip ----
enum strip_side { strip_both = 0, strip_left = 1, strip_right = 2 };
// Whether code point `c` is one of `chars` (Numba: `string[i] in chars`), or whitespace where
// no characters were given.
inline bool strip_member(u32 c, const str* chars) {
  if (!chars) return is_python_space(c);
  i64 width;
  for (i64 at = 0; at < chars->size; at += width)
    if (code_point_at(chars->bytes + at, &width) == c) return true;
  return false;
}
inline str strip_text(const str& s, const str* chars, i64 side) {
  code_points cps(s);
  i64 from = 0, to = cps.n;
  if (side != strip_right)
    while (from < to && strip_member(cps.points[from], chars)) ++from;
  if (side != strip_left)
    while (to > from && strip_member(cps.points[to - 1], chars)) --to;
  return text_part(s, cps, from, to);
}
inline str str_strip_side(const str& s, i64 side) { return strip_text(s, nullptr, side); }
inline str str_strip_chars(const str& s, const str& chars, i64 side) { return strip_text(s, &chars, side); }

// ---- join of a tuple of strings, and of a string's characters ----
inline void join_items(text_builder&, const str&, const tuple<>&, int) {}
template <class... T> void join_items(text_builder& out, const str& sep, const tuple<str, T...>& parts, int i) {
  if (i > 0) out.put(sep);
  out.put(parts.head);
  join_items(out, sep, parts.tail, i + 1);
}
template <class... T> str str_join(const str& sep, const tuple<str, T...>& parts) {
  text_builder out;
  join_items(out, sep, parts, 0);
  return out.finish();
}
inline str str_join(const str& sep, const str& characters) {
  text_builder out;
  i64 width;
  for (i64 at = 0; at < characters.size; at += width) {
    if (at > 0) out.put(sep);
    code_point_at(characters.bytes + at, &width);
    out.put(characters.bytes + at, width, 1);
  }
  return out.finish();
}

// ---- what print() and str() write for containers ----
// Python's repr of the items of a list or a tuple (text_methods.cuh has strings, numbers and
// lists); a complex as Python writes it: (1+2j), 1j, (-0+1j), its parts without a '.0'.
inline void put_repr(text_builder& out, none_t) { out.put("None", 4, 4); }
inline void put_complex_part(text_builder& out, f64 x, bool signed_) {
  str text = repr_float(x);
  i64 n = text.size;
  if (n > 2 && text.bytes[n - 2] == '.' && text.bytes[n - 1] == '0') n -= 2;
  if (signed_ && text.bytes[0] != '-') out.put("+", 1, 1);  // (inf+nanj)
  out.put(text.bytes, n, n);
}
template <class T> void put_repr(text_builder& out, const complex<T>& z) {
  f64 re = static_cast<f64>(z.re), im = static_cast<f64>(z.im);
  if (re == 0 && !__builtin_signbit(re)) {  // 1j, but (-0+1j)
    put_complex_part(out, im, false);
    out.put("j", 1, 1);
    return;
  }
  out.put("(", 1, 1);
  put_complex_part(out, re, false);
  put_complex_part(out, im, true);
  out.put("j)", 2, 2);
}
inline void put_tuple_items(text_builder&, const tuple<>&, int) {}
template <class H, class... T> void put_tuple_items(text_builder& out, const tuple<H, T...>& t, int i) {
  if (i > 0) out.put(", ", 2, 2);
  put_repr(out, t.head);
  put_tuple_items(out, t.tail, i + 1);
}
template <class... T> void put_repr(text_builder& out, const tuple<T...>& t) {
  out.put("(", 1, 1);
  put_tuple_items(out, t, 0);
  if (sizeof...(T) == 1) out.put(",)", 2, 2);
  else out.put(")", 1, 1);
}

// str() of a typed Dict's keys and values, as its __str__ formats them ("{}".format(x)):
// strings bare, a nested dict or a (typed) list the same way, everything else its repr.
template <class T> void put_str(text_builder& out, const T& x) { put_repr(out, x); }
inline void put_str(text_builder& out, const str& s) { out.put(s); }
template <class T> void put_str(text_builder& out, const list<T>& l) {
  out.put("[", 1, 1);
  for (i64 i = 0; i < l.size(); ++i) {
    if (i > 0) out.put(", ", 2, 2);
    put_str(out, l.items()[i]);
  }
  out.put("]", 1, 1);
}
template <class K, class V> void put_str(text_builder& out, const dict<K, V>& d) {
  out.put("{", 1, 1);
  auto* s = d.storage;
  bool first = true;
  for (i64 i = 0; s && i < s->entry_count; ++i) {
    if (!s->entries[i].live) continue;
    if (!first) out.put(", ", 2, 2);
    first = false;
    put_str(out, s->entries[i].key);
    out.put(": ", 2, 2);
    put_str(out, s->entries[i].value);
  }
  out.put("}", 1, 1);
}
// The text print() writes for one value of a container type: a list or tuple as its repr, a
// dict as its str.
template <class T> str print_text(const T& x) {
  text_builder out;
  put_repr(out, x);
  return out.finish();
}
template <class K, class V> str print_text(const dict<K, V>& d) {
  text_builder out;
  put_str(out, d);
  return out.finish();
}

}  // namespace pk

#define PK_STR_INDEX(s, sub, start, end, right) (::pk::str_index_in(__FILE__, __LINE__, s, sub, start, end, right))
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_TEXT_SEARCH_CUH
