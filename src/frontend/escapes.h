// Python string escapes (\n, \x41, \u00e9, \101, ...) decoded as CPython decodes a str
// literal, to the UTF-8 bytes print() would write.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace pykern::frontend {

// `escape` is one escape_sequence token, backslash included. nullopt for \N{...}, which needs
// the Unicode name database, and for code points Python itself rejects (over U+10FFFF).
std::optional<std::string> decode_python_escape(std::string_view escape);

}  // namespace pykern::frontend
