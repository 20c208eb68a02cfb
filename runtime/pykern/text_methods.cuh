// pykern runtime: more of Python's str in @jit functions on the host, as Numba 0.68 computes it
// (numba/cpython/unicode.py, its quirks included): split, rsplit, splitlines, join, partition,
// count, replace, padding, expandtabs, the character classes (isdigit, isalpha, ...), case
// mappings of every code point (runtime/pykern/unicode_tables.cuh, generated), ord, chr,
// and what lists and dicts of strings need (comparisons, hashing, key text).
// sema/text_methods.cpp types the calls. Host builds only, as text.cuh.
#ifndef PYKERN_TEXT_METHODS_CUH
#define PYKERN_TEXT_METHODS_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/list.cuh"
#include "pykern/dict.cuh"
#include "pykern/text.cuh"
#include "pykern/unicode_tables.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// ---- strings as list items and dict keys ----
inline bool operator==(const str& a, const str& b) { return str_eq(a, b); }
inline bool operator!=(const str& a, const str& b) { return !str_eq(a, b); }
inline bool operator<(const str& a, const str& b) { return str_order(a, b) < 0; }
inline bool operator>(const str& a, const str& b) { return str_order(a, b) > 0; }
inline bool operator<=(const str& a, const str& b) { return str_order(a, b) <= 0; }
inline bool operator>=(const str& a, const str& b) { return str_order(a, b) >= 0; }
inline u64 dict_hash(const str& s) {  // FNV-1a over the bytes; only equal texts must agree
  u64 h = 1469598103934665603ull;
  for (i64 i = 0; i < s.size; ++i) h = (h ^ static_cast<unsigned char>(s.bytes[i])) * 1099511628211ull;
  return dict_mix(h);
}
inline bool dict_key_equal(const str& a, const str& b) { return str_eq(a, b); }
inline void dict_key_text(dict_text& out, const str& s) { out.put(repr_str(s).bytes); }  // KeyError: 'k'

// ---- the Unicode tables ----
template <unsigned long N> bool unicode_has(const unicode_run (&table)[N], u32 cp) {
  unsigned long low = 0, high = N;  // the first run starting after cp
  while (low < high) {
    unsigned long mid = (low + high) / 2;
    if (table[mid].first <= cp) low = mid + 1;
    else high = mid;
  }
  if (low == 0) return false;
  const unicode_run& r = table[low - 1];
  return cp <= r.last && (cp - r.first) % r.step == 0;
}
template <unsigned long N> u32 unicode_simple(const unicode_delta_run (&table)[N], u32 cp) {
  unsigned long low = 0, high = N;
  while (low < high) {
    unsigned long mid = (low + high) / 2;
    if (table[mid].first <= cp) low = mid + 1;
    else high = mid;
  }
  if (low == 0) return cp;
  const unicode_delta_run& r = table[low - 1];
  return cp <= r.last && (cp - r.first) % r.step == 0 ? static_cast<u32>(static_cast<i64>(cp) + r.delta) : cp;
}
enum unicode_case { case_upper = 0, case_lower = 1, case_title = 2, case_fold = 3 };
// The code points `cp` maps to (Python's full case mapping): their count, 1 to 3.
inline int unicode_map(u32 cp, unicode_case kind, u32 out[3]) {
  if (cp < 0x80) {
    out[0] = (kind == case_upper || kind == case_title) ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp)
                                                        : (cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
    return 1;
  }
  unsigned long low = 0, high = sizeof unicode_full / sizeof unicode_full[0];
  while (low < high) {  // the first row not before (cp, kind)
    unsigned long mid = (low + high) / 2;
    const unicode_full_mapping& m = unicode_full[mid];
    if (m.cp < cp || (m.cp == cp && m.kind < static_cast<unsigned>(kind))) low = mid + 1;
    else high = mid;
  }
  if (low < sizeof unicode_full / sizeof unicode_full[0] && unicode_full[low].cp == cp &&
      unicode_full[low].kind == static_cast<unsigned>(kind)) {
    for (unsigned i = 0; i < unicode_full[low].count; ++i) out[i] = unicode_full[low].to[i];
    return static_cast<int>(unicode_full[low].count);
  }
  if (kind == case_fold) return unicode_map(cp, case_lower, out);  // folds as it lowers unless listed (İ too)
  switch (kind) {
    case case_upper: out[0] = unicode_simple(unicode_to_upper, cp); break;
    case case_title: out[0] = unicode_simple(unicode_to_title, cp); break;
    default: out[0] = unicode_simple(unicode_to_lower, cp); break;  // casefold is lower but where listed
  }
  return 1;
}
inline bool is_python_alpha(u32 c) { return unicode_has(unicode_alpha, c); }
inline bool is_python_decimal(u32 c) { return unicode_has(unicode_decimal, c); }
inline bool is_python_digit(u32 c) { return unicode_has(unicode_digit, c); }
inline bool is_python_numeric(u32 c) { return unicode_has(unicode_numeric, c); }
inline bool is_python_lower(u32 c) { return unicode_has(unicode_lower, c); }
inline bool is_python_upper(u32 c) { return unicode_has(unicode_upper, c); }
inline bool is_python_title(u32 c) { return unicode_has(unicode_titlecase, c); }
inline bool is_python_cased(u32 c) { return unicode_has(unicode_cased, c); }
inline bool is_python_case_ignorable(u32 c) { return unicode_has(unicode_case_ignorable, c); }

// ---- building a text ----
struct text_builder {
  char* bytes = nullptr;
  i64 size = 0, capacity = 0, length = 0;
  text_builder() = default;
  text_builder(const text_builder&) = delete;
  text_builder& operator=(const text_builder&) = delete;
  ~text_builder() { delete[] bytes; }
  void reserve(i64 more) {
    if (size + more <= capacity) return;
    i64 grown = capacity < 32 ? 32 : capacity * 2;
    if (grown < size + more) grown = size + more;
    char* fresh = new char[grown];
    for (i64 i = 0; i < size; ++i) fresh[i] = bytes[i];
    delete[] bytes;
    bytes = fresh, capacity = grown;
  }
  void put(const char* p, i64 n, i64 code_points) {
    reserve(n);
    for (i64 i = 0; i < n; ++i) bytes[size++] = p[i];
    length += code_points;
  }
  void put(const str& s) { put(s.bytes, s.size, s.length); }
  void put_code_point(u32 cp) {
    char b[4];
    int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (n == 1) b[0] = static_cast<char>(cp);
    else {
      for (int i = n - 1; i > 0; --i, cp >>= 6) b[i] = static_cast<char>(0x80 | (cp & 0x3F));
      b[0] = static_cast<char>((n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0) | cp);
    }
    put(b, n, 1);
  }
  str finish() const {
    char* out;
    str s = str_alloc(size, out);
    for (i64 i = 0; i < size; ++i) out[i] = bytes[i];
    s.length = length;
    return s;
  }
};

// The code points of a text, decoded once (indices below are code point indices, as Numba's).
struct code_points {
  u32* points = nullptr;
  i64* offsets = nullptr;  // byte offset of each code point, and the size at [n]
  i64 n = 0;
  explicit code_points(const str& s) : n(s.length) {
    points = new u32[n + 1];
    offsets = new i64[n + 1];
    i64 at = 0, width;
    for (i64 k = 0; k < n; ++k) {
      offsets[k] = at;
      points[k] = code_point_at(s.bytes + at, &width);
      at += width;
    }
    offsets[n] = at;
  }
  code_points(const code_points&) = delete;
  code_points& operator=(const code_points&) = delete;
  ~code_points() {
    delete[] points;
    delete[] offsets;
  }
};
// s[from:to] by code point indices (0 <= from <= to <= length).
inline str text_part(const str& s, const code_points& cps, i64 from, i64 to) {
  str r = str_from_bytes(s.bytes + cps.offsets[from], cps.offsets[to] - cps.offsets[from]);
  return r;
}

// ---- split, rsplit, splitlines, join, partition ----
// s.split() / s.split(None, m): Numba's loop, which stops at the m-th split and drops the rest
// ("a b c".split(None, 1) is ['a'] there; m of 0 or below -1 splits everywhere).
inline list<str> str_split_whitespace(const str& s, i64 maxsplit) {
  code_points cps(s);
  list<str> parts = empty_list<str>();
  i64 last = 0, count = 0;
  bool in_space = true;
  for (i64 i = 0; i < cps.n; ++i) {
    bool space = is_python_space(cps.points[i]);
    if (in_space) {
      if (!space) last = i, in_space = false;
    } else if (space) {
      list_append(parts, text_part(s, cps, last, i));
      in_space = true;
      if (maxsplit != -1 && ++count == maxsplit) break;
    }
  }
  if (!in_space) list_append(parts, text_part(s, cps, last, cps.n));
  return parts;
}
// s.split(sep, m): only m == -1 splits everywhere (Numba's test); other negatives split nowhere.
inline list<str> str_split(const char* file, int line, const str& s, const str& sep, i64 maxsplit) {
  if (sep.length == 0) report_failure(file, line, "ValueError", "empty separator");
  list<str> parts = empty_list<str>();
  i64 last = 0, at = 0, count = 0;  // bytes: a UTF-8 match starts at a code point
  while (at < s.size && (maxsplit == -1 || count < maxsplit)) {
    i64 found = find_bytes(s, sep, at);
    if (found < 0) break;
    list_append(parts, str_from_bytes(s.bytes + last, found - last));
    at = last = found + sep.size;
    ++count;
  }
  list_append(parts, str_from_bytes(s.bytes + last, s.size - last));
  return parts;
}
template <class T> void list_reverse_items(const list<T>& l) {
  for (i64 i = 0, j = l.size() - 1; i < j; ++i, --j) {
    T t = l.items()[i];
    l.items()[i] = l.items()[j];
    l.items()[j] = t;
  }
}
// s.rsplit() / s.rsplit(None, m): CPython's rule (the rest keeps its leading whitespace).
inline list<str> str_rsplit_whitespace(const str& s, i64 maxsplit) {
  code_points cps(s);
  if (maxsplit < 0) maxsplit = 9223372036854775807LL;
  list<str> parts = empty_list<str>();
  i64 i = cps.n - 1;
  for (; maxsplit > 0; --maxsplit) {
    while (i >= 0 && is_python_space(cps.points[i])) --i;
    if (i < 0) break;
    i64 j = i--;
    while (i >= 0 && !is_python_space(cps.points[i])) --i;
    list_append(parts, text_part(s, cps, i + 1, j + 1));
  }
  if (i >= 0) {
    while (i >= 0 && is_python_space(cps.points[i])) --i;
    if (i >= 0) list_append(parts, text_part(s, cps, 0, i + 1));
  }
  list_reverse_items(parts);
  return parts;
}
inline list<str> str_rsplit(const char* file, int line, const str& s, const str& sep, i64 maxsplit) {
  list<str> parts = empty_list<str>();
  if (s.length < sep.length) {  // before the empty-separator test, as Numba
    list_append(parts, s);
    return parts;
  }
  if (sep.length == 0) report_failure(file, line, "ValueError", "empty separator");
  if (maxsplit < 0) maxsplit = 9223372036854775807LL;
  i64 end = s.size;  // bytes
  for (; maxsplit > 0; --maxsplit) {
    i64 found = -1;
    for (i64 at = end - sep.size; at >= 0 && found < 0; --at) {
      i64 k = 0;
      while (k < sep.size && s.bytes[at + k] == sep.bytes[k]) ++k;
      if (k == sep.size) found = at;
    }
    if (found < 0) break;
    list_append(parts, str_from_bytes(s.bytes + found + sep.size, end - found - sep.size));
    end = found;
  }
  list_append(parts, str_from_bytes(s.bytes, end));
  list_reverse_items(parts);
  return parts;
}
inline bool is_line_break(u32 c) {
  return (c >= 0x0A && c <= 0x0D) || (c >= 0x1C && c <= 0x1E) || c == 0x85 || c == 0x2028 || c == 0x2029;
}
inline list<str> str_splitlines(const str& s, bool keepends) {
  code_points cps(s);
  list<str> parts = empty_list<str>();
  i64 i = 0;
  while (i < cps.n) {
    i64 start = i;
    while (i < cps.n && !is_line_break(cps.points[i])) ++i;
    i64 eol = i;
    if (i < cps.n) {
      i += cps.points[i] == '\r' && i + 1 < cps.n && cps.points[i + 1] == '\n' ? 2 : 1;
      if (keepends) eol = i;
    }
    list_append(parts, text_part(s, cps, start, eol));
  }
  return parts;
}
inline str str_join(const str& sep, const list<str>& parts) {
  text_builder out;
  for (i64 i = 0; i < parts.size(); ++i) {
    if (i > 0) out.put(sep);
    out.put(parts.items()[i]);
  }
  return out.finish();
}
inline tuple<str, str, str> str_partition(const char* file, int line, const str& s, const str& sep, bool from_right) {
  if (sep.length == 0) report_failure(file, line, "ValueError", "empty separator");
  i64 found = -1;
  if (!from_right) found = find_bytes(s, sep, 0);
  else
    for (i64 at = s.size - sep.size; at >= 0 && found < 0; --at) {
      i64 k = 0;
      while (k < sep.size && s.bytes[at + k] == sep.bytes[k]) ++k;
      if (k == sep.size) found = at;
    }
  if (found < 0)
    return from_right ? make_tuple(str(), str(), s) : make_tuple(s, str(), str());
  return make_tuple(str_from_bytes(s.bytes, found), sep,
                    str_from_bytes(s.bytes + found + sep.size, s.size - found - sep.size));
}

// ---- count, replace ----
// CPython's ADJUST_INDICES: start and end as a slice takes them, but a start past the end stays.
inline void adjust_indices(i64 length, i64& start, i64& end) {
  if (end == none_index || end > length) end = length;
  else if (end < 0 && (end += length) < 0) end = 0;
  if (start == none_index) start = 0;
  else if (start < 0 && (start += length) < 0) start = 0;
}
inline i64 str_count(const str& s, const str& sub, i64 start, i64 end) {
  adjust_indices(s.length, start, end);
  if (end - start < sub.length) return 0;
  if (sub.length == 0) return end - start + 1;
  i64 from = byte_offset(s, start), to = byte_offset(s, end), n = 0;
  str window = str_literal(s.bytes + from, to - from, end - start);
  for (i64 at = find_bytes(window, sub, 0); at >= 0; at = find_bytes(window, sub, at + sub.size)) ++n;
  return n;
}
inline str str_replace(const str& s, const str& old, const str& with, i64 count) {
  text_builder out;
  if (count < 0) count = 9223372036854775807LL;
  if (old.size == 0) {  // `with` before each code point and after the last, count times
    i64 at = 0, width;
    for (i64 k = 0; k <= s.length; ++k) {
      if (count > 0) out.put(with), --count;
      if (k < s.length) {
        code_point_at(s.bytes + at, &width);
        out.put(s.bytes + at, width, 1);
        at += width;
      }
    }
    return out.finish();
  }
  i64 at = 0;
  for (; count > 0; --count) {
    i64 found = find_bytes(s, old, at);
    if (found < 0) break;
    out.put(s.bytes + at, found - at, count_code_points(s.bytes + at, found - at));
    out.put(with);
    at = found + old.size;
  }
  out.put(s.bytes + at, s.size - at, count_code_points(s.bytes + at, s.size - at));
  return out.finish();
}

// ---- padding ----
inline u32 fill_code_point(const char* file, int line, const str& fill) {
  if (fill.length != 1) report_failure(file, line, "ValueError", "The fill character must be exactly one character long");
  i64 width;
  return code_point_at(fill.bytes, &width);
}
// ljust (align 0), rjust (1), center (2) as CPython's pad: center's odd margin goes left when
// the width is odd.
inline str str_pad(const char* file, int line, const str& s, i64 width, const str& fill, int align) {
  u32 f = fill_code_point(file, line, fill);
  if (width <= s.length) return s;
  i64 margin = width - s.length;
  i64 left = align == 0 ? 0 : align == 1 ? margin : margin / 2 + (margin & width & 1);
  text_builder out;
  for (i64 i = 0; i < left; ++i) out.put_code_point(f);
  out.put(s);
  for (i64 i = left; i < margin; ++i) out.put_code_point(f);
  return out.finish();
}
inline str str_zfill(const str& s, i64 width) {
  if (width <= s.length) return s;
  text_builder out;
  i64 from = 0;
  if (s.size > 0 && (s.bytes[0] == '+' || s.bytes[0] == '-')) out.put(s.bytes, 1, 1), from = 1;
  for (i64 i = s.length; i < width; ++i) out.put("0", 1, 1);
  out.put(s.bytes + from, s.size - from, s.length - from);
  return out.finish();
}
inline str str_expandtabs(const str& s, i64 tabsize) {
  text_builder out;
  i64 column = 0, at = 0, width;
  while (at < s.size) {
    u32 cp = code_point_at(s.bytes + at, &width);
    if (cp == '\t') {
      if (tabsize > 0) {
        i64 spaces = tabsize - column % tabsize;
        for (i64 k = 0; k < spaces; ++k) out.put(" ", 1, 1);
        column += spaces;
      }
    } else {
      out.put(s.bytes + at, width, 1);
      column = cp == '\n' || cp == '\r' ? 0 : column + 1;
    }
    at += width;
  }
  return out.finish();
}

// ---- character classes: every code point has the class; an empty text has none ----
enum text_class { class_alpha, class_decimal, class_digit, class_numeric, class_alnum, class_space, class_printable };
inline bool has_class(u32 c, text_class k) {
  switch (k) {
    case class_alpha: return is_python_alpha(c);
    case class_decimal: return is_python_decimal(c);
    case class_digit: return is_python_digit(c);
    case class_numeric: return is_python_numeric(c);
    case class_alnum: return is_python_alpha(c) || is_python_decimal(c) || is_python_digit(c) || is_python_numeric(c);
    case class_space: return is_python_space(c);
    default: return unicode_has(unicode_printable, c);
  }
}
inline bool str_all_of(const str& s, text_class k) {
  if (s.length == 0) return k == class_printable;
  i64 at = 0, width;
  while (at < s.size) {
    if (!has_class(code_point_at(s.bytes + at, &width), k)) return false;
    at += width;
  }
  return true;
}
// Numba types these four as int64 (1 or 0), isascii as uint32.
inline i64 str_isalpha(const str& s) { return str_all_of(s, class_alpha); }
inline i64 str_isdecimal(const str& s) { return str_all_of(s, class_decimal); }
inline i64 str_isdigit(const str& s) { return str_all_of(s, class_digit); }
inline i64 str_isalnum(const str& s) { return str_all_of(s, class_alnum); }
inline bool str_isnumeric(const str& s) { return str_all_of(s, class_numeric); }
inline bool str_isspace(const str& s) { return str_all_of(s, class_space); }
inline bool str_isprintable(const str& s) { return str_all_of(s, class_printable); }
inline u32 str_isascii(const str& s) { return s.ascii(); }
// islower / isupper: a cased code point, and none of the other case (nor titlecase).
inline bool str_has_case(const str& s, bool lower) {
  bool cased = false;
  i64 at = 0, width;
  while (at < s.size) {
    u32 c = code_point_at(s.bytes + at, &width);
    at += width;
    if ((lower ? is_python_upper(c) : is_python_lower(c)) || is_python_title(c)) return false;
    if (lower ? is_python_lower(c) : is_python_upper(c)) cased = true;
  }
  return cased;
}
inline bool str_islower(const str& s) { return str_has_case(s, true); }
inline bool str_isupper(const str& s) { return str_has_case(s, false); }
// istitle: upper and titlecase letters only after uncased ones, lower ones only after cased.
inline bool str_istitle(const str& s) {
  bool cased = false, previous_cased = false;
  i64 at = 0, width;
  while (at < s.size) {
    u32 c = code_point_at(s.bytes + at, &width);
    at += width;
    if (is_python_upper(c) || is_python_title(c)) {
      if (previous_cased) return false;
      previous_cased = cased = true;
    } else if (is_python_lower(c)) {
      if (!previous_cased) return false;
      previous_cased = cased = true;
    } else {
      previous_cased = false;
    }
  }
  return cased;
}
inline bool str_isidentifier(const str& s) {
  if (s.length == 0) return false;
  i64 at = 0, width;
  while (at < s.size) {
    u32 c = code_point_at(s.bytes + at, &width);
    if (!(at == 0 ? unicode_has(unicode_id_start, c) : unicode_has(unicode_id_continue, c))) return false;
    at += width;
  }
  return true;
}

// ---- case mappings ----
// Σ lowers to final ς after a cased letter (case-ignorable ones skipped) and before none.
inline bool final_sigma(const code_points& cps, i64 i) {
  i64 j = i - 1;
  while (j >= 0 && is_python_case_ignorable(cps.points[j])) --j;
  if (j < 0 || !is_python_cased(cps.points[j])) return false;
  j = i + 1;
  while (j < cps.n && is_python_case_ignorable(cps.points[j])) ++j;
  return j == cps.n || !is_python_cased(cps.points[j]);
}
inline void put_mapped(text_builder& out, const code_points& cps, i64 i, unicode_case kind) {
  u32 mapped[3];
  if (kind == case_lower && cps.points[i] == 0x3A3) {
    out.put_code_point(final_sigma(cps, i) ? 0x3C2 : 0x3C3);
    return;
  }
  int n = unicode_map(cps.points[i], kind, mapped);
  for (int k = 0; k < n; ++k) out.put_code_point(mapped[k]);
}
enum text_case { to_upper, to_lower, to_casefold, to_title, to_capitalize, to_swapcase };
inline str str_case(const str& s, text_case how) {
  code_points cps(s);
  text_builder out;
  bool previous_cased = false;
  for (i64 i = 0; i < cps.n; ++i) {
    u32 c = cps.points[i];
    switch (how) {
      case to_upper: put_mapped(out, cps, i, case_upper); break;
      case to_lower: put_mapped(out, cps, i, case_lower); break;
      case to_casefold: put_mapped(out, cps, i, case_fold); break;
      case to_title:
        put_mapped(out, cps, i, previous_cased ? case_lower : case_title);
        previous_cased = is_python_cased(c);
        break;
      case to_capitalize: put_mapped(out, cps, i, i == 0 ? case_title : case_lower); break;
      case to_swapcase:
        if (is_python_upper(c)) put_mapped(out, cps, i, case_lower);
        else if (is_python_lower(c)) put_mapped(out, cps, i, case_upper);
        else out.put_code_point(c);
        break;
    }
  }
  return out.finish();
}

inline str str_to_upper(const str& s) { return str_case(s, to_upper); }
inline str str_to_lower(const str& s) { return str_case(s, to_lower); }
inline str str_casefold(const str& s) { return str_case(s, to_casefold); }
inline str str_title(const str& s) { return str_case(s, to_title); }
inline str str_capitalize(const str& s) { return str_case(s, to_capitalize); }
inline str str_swapcase(const str& s) { return str_case(s, to_swapcase); }

// ---- repr() of a list, as print() shows it ----
inline void put_repr(text_builder& out, const str& s) { out.put(repr_str(s)); }
inline void put_repr(text_builder& out, bool b) { out.put(str_of_bool(b)); }
inline void put_repr(text_builder& out, f64 x) { out.put(repr_float(x)); }
inline void put_repr(text_builder& out, f32 x) { out.put(repr_float(x)); }
template <class T> void put_repr(text_builder& out, T n) {
  if constexpr (T(-1) < T(0)) out.put(str_of_int(static_cast<i64>(n)));
  else out.put(str_of_int(static_cast<u64>(n)));
}
template <class T> void put_repr(text_builder& out, const list<T>& l) {
  out.put("[", 1, 1);
  for (i64 i = 0; i < l.size(); ++i) {
    if (i > 0) out.put(", ", 2, 2);
    put_repr(out, l.items()[i]);
  }
  out.put("]", 1, 1);
}
template <class T> str list_repr(const list<T>& l) {
  text_builder out;
  put_repr(out, l);
  return out.finish();
}

// ---- ord, chr ----
inline i64 str_ord(const char* file, int line, const str& s) {
  if (s.length != 1) report_failure(file, line, "TypeError", "ord() expected a character");
  i64 width;
  return code_point_at(s.bytes, &width);
}
inline str str_chr(const char* file, int line, i64 cp) {
  if (cp < 0 || cp > 0x10FFFF) report_failure(file, line, "ValueError", "chr() arg not in range(0x10ffff)");
  text_builder out;
  out.put_code_point(static_cast<u32>(cp));
  return out.finish();
}
}  // namespace pk

#define PK_STR_SPLIT(s, sep, m) (::pk::str_split(__FILE__, __LINE__, s, sep, m))
#define PK_STR_RSPLIT(s, sep, m) (::pk::str_rsplit(__FILE__, __LINE__, s, sep, m))
#define PK_STR_PARTITION(s, sep, right) (::pk::str_partition(__FILE__, __LINE__, s, sep, right))
#define PK_STR_PAD(s, width, fill, align) (::pk::str_pad(__FILE__, __LINE__, s, width, fill, align))
#define PK_STR_ORD(s) (::pk::str_ord(__FILE__, __LINE__, s))
#define PK_STR_CHR(i) (::pk::str_chr(__FILE__, __LINE__, i))
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_TEXT_METHODS_CUH
