// fmt's out-of-line functions (vformat, throw_format_error, is_printable, ...), compiled from
// fmt's own headers into the pykern executable: with these the executable needs no libfmt.so,
// and so (libstdc++ being linked statically) no libstdc++.so either, whose symbol binding was
// half of a cache-hit process (BENCHMARKS.md, issue 32). The library targets link fmt as before.
#include <fmt/format-inl.h>

#ifndef FMT_HEADER_ONLY
FMT_BEGIN_NAMESPACE
namespace detail {
// The locale templates <fmt/format.h> declares `extern template` outside header-only builds.
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl<char>(locale_ref) -> char;
}  // namespace detail
FMT_END_NAMESPACE
#endif
