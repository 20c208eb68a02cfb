// NFKC normalisation of Python identifiers. Python reads `ﬁ` as `fi` and `𝐒𝐂𝐀𝐋𝐄` as `SCALE`
// (PEP 3131): two spellings of one name must be one name here too.
#pragma once
#include <string>
#include <string_view>

namespace pykern::syntax {

// The NFKC form of a UTF-8 identifier, as CPython's parser computes it. ASCII text (almost every
// identifier) comes back unchanged at once. Code points outside identifiers pass through as they
// are: the tables cover identifier characters only (src/syntax/gen_nfkc_tables.py). Every
// identifier character's NFKC form is itself an identifier (the generator checks it), so the
// result needs no second validity check.
std::string nfkc_identifier(std::string_view utf8);

}  // namespace pykern::syntax
