#include <doctest/doctest.h>

#include "frontend/module.h"
#include "syntax/syntax_errors.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {
struct Parsed {
  SourceFile file;
  Result<syntax::SyntaxTree> tree;
  Diagnostics diagnostics;
  frontend::Module module;
  explicit Parsed(std::string text)
      : file("k.py", std::move(text)), tree(syntax::SyntaxTree::parse(file)),
        module(frontend::Module::build(tree.value(), diagnostics)) {}
  std::string dump(const std::string& name) {
    const ast::Function* f = module.lowered_function(name, diagnostics);
    REQUIRE(f != nullptr);
    return ast::dump(module.ast(), *f);
  }
};
}  // namespace

TEST_CASE("the grammar's names resolve once and check") {
  auto grammar = syntax::Grammar::get();
  REQUIRE(grammar.ok());
  CHECK((*grammar)->field(syntax::Field::body) != 0);
}

TEST_CASE("imports and aliases resolve to qualified names") {
  Parsed p(
      "import numba as nb\nimport math\nimport numpy as np\nfrom numba import cuda, float32 as f32\n"
      "from math import exp\nfrom numba.cuda.random import xoroshiro128p_uniform_float32 as uni\n");
  CHECK(p.module.imported("nb") == "numba");
  CHECK(p.module.imported("cuda") == "numba.cuda");
  CHECK(p.module.imported("f32") == "numba.float32");
  CHECK(p.module.imported("exp") == "math.exp");
  CHECK(p.module.imported("uni") == "numba.cuda.random.xoroshiro128p_uniform_float32");
  CHECK_FALSE(p.module.imported("os"));
}

TEST_CASE("fastmath takes Numba's set of flags and its dict of flags to booleans") {
  Parsed p(
      "from numba import njit\n"
      "@njit(fastmath={'nnan', 'ninf'})\ndef s(x):\n    return x\n"
      "@njit(fastmath={'nsz': True, 'arcp': False})\ndef d(x):\n    return x\n"
      "@njit(fastmath=set())\ndef e(x):\n    return x\n"
      "@njit(fastmath=False)\ndef f(x):\n    return x\n");
  auto* s = p.module.function("s");
  REQUIRE(s);
  CHECK(s->decoration.fastmath.has(FastMathFlag::nnan));
  CHECK(s->decoration.fastmath.has(FastMathFlag::ninf));
  CHECK_FALSE(s->decoration.fastmath.has(FastMathFlag::nsz));
  CHECK_FALSE(s->decoration.fastmath.has(FastMathFlag::fast));
  auto* d = p.module.function("d");
  REQUIRE(d);
  CHECK(d->decoration.fastmath.has(FastMathFlag::nsz));
  CHECK_FALSE(d->decoration.fastmath.has(FastMathFlag::arcp));
  CHECK_FALSE(p.module.function("e")->decoration.fastmath.any());  // set(): none, as Numba reads it
  CHECK_FALSE(p.module.function("f")->decoration.fastmath.any());
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
}

TEST_CASE("decorators set roles and options") {
  Parsed p(
      "import numba as nb\nfrom numba import cuda, jit, vectorize\n"
      "@cuda.jit(debug=True, fastmath=True, lineinfo=True, max_registers=32, opt=2)\ndef k(a):\n    pass\n"
      "@cuda.jit(device=True)\ndef d(x):\n    return x\n"
      "@jit\ndef j(x):\n    return x\n"
      "@nb.vectorize(['int32(int32)'], target='cuda')\ndef u(x):\n    return x\n"
      "@cuda.reduce\ndef r(a, b):\n    return a + b\n"
      "def host():\n    pass\n");
  auto* k = p.module.function("k");
  REQUIRE(k);
  CHECK(k->decoration.role == frontend::FunctionRole::kernel);
  CHECK(k->decoration.debug);
  CHECK(k->decoration.fastmath == FastMath::all());
  CHECK(k->decoration.lineinfo);
  CHECK(k->decoration.max_registers == 32);
  CHECK(k->decoration.opt == 2);
  CHECK(p.module.function("d")->decoration.role == frontend::FunctionRole::device);
  CHECK(p.module.function("j")->decoration.role == frontend::FunctionRole::device);
  CHECK(p.module.function("u")->decoration.role == frontend::FunctionRole::vectorize);
  CHECK(p.module.function("u")->decoration.signatures.size() == 1);
  CHECK(p.module.function("u")->decoration.target == "cuda");
  CHECK(p.module.function("r")->decoration.role == frontend::FunctionRole::reduce);
  CHECK(p.module.function("host")->decoration.role == frontend::FunctionRole::undecorated);
  CHECK_FALSE(p.diagnostics.has_errors());
}

TEST_CASE("lowering keeps the supported subset, with docstrings, elif chains and slices") {
  Parsed p(
      "def k(a, b=2):\n    '''doc'''\n    x, y = y, x\n    a[1:-1:2] += 1\n"
      "    if 0 < x < 3 and not y:\n        pass\n    elif x:\n        return x, y\n    else:\n        x = 1 if y else 2\n"
      "    for i in range(10, 0, -1):\n        break\n    else:\n        continue\n"
      "    while x:\n        x -= 1\n");
  CHECK(p.dump("k") ==
        "def k(a, b):\n"
        "  (x, y) = (y, x)\n"
        "  a[1:(-1):2] += 1\n"
        "  if ((0 < x < 3) and (not y)):\n"
        "    pass\n"
        "  else:\n"
        "    if x:\n"
        "      return (x, y)\n"
        "    else:\n"
        "      x = (1 if y else 2)\n"
        "  for i in range(10, 0, (-1)):\n"
        "    break\n"
        "  else:\n"
        "    continue\n"
        "  while x:\n"
        "    x -= 1\n");
  CHECK(p.module.function("k")->ast.docstring == "doc");
  CHECK_FALSE(p.diagnostics.has_errors());
}

TEST_CASE("backslash continuations lower like the joined line: in calls, slices, comparisons and conditionals") {
  Parsed p(
      "def k(a, \\\n      b):\n    x = f(a, \\\n          b) + a[1: \\\n 2]\n"
      "    y = a < \\\n        b <= \\\n        x\n    z = a if y \\\n        else b\n    return \\\n        z\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  CHECK(p.dump("k") ==
        "def k(a, b):\n  x = (f(a, b) + a[1:2:_])\n  y = (a < b <= x)\n  z = (a if y else b)\n  return z\n");
}

TEST_CASE("host code that does not parse is ignored; a broken kernel is reported") {
  Parsed ignored("from numba import cuda\n%timeit f()\n!nvidia-smi\n@cuda.jit\ndef k(a):\n    a[0] = 1\n");
  CHECK_FALSE(ignored.diagnostics.has_errors());
  CHECK(ignored.module.function("k"));
  Parsed broken("from numba import cuda\n@cuda.jit\ndef k(a)\n    a[0] = 1\n");
  CHECK(broken.diagnostics.has_errors());
}

TEST_CASE("comparison chains, 'is not' and 'not in' lower to one operator each") {
  Parsed p("def k(a, b, c):\n    x = a < b <= c != a\n    y = a is not None\n    z = a not in b\n");
  CHECK(p.dump("k") == "def k(a, b, c):\n  x = (a < b <= c != a)\n  y = (a is not None)\n  z = (a not in b)\n");
}

#include "pykern/module.h"

TEST_CASE("nesting just under the limit translates and runs (no phase recurses past the stack)") {
  std::string header = "from numba import cuda\n@cuda.jit\ndef k(a):\n";
  std::string calls, closing, chain = "a[1]";
  for (int i = 0; i < 290; ++i) calls += "abs(", closing += ")";
  for (int i = 1; i < 590; ++i) chain += " + a[1]";
  for (const std::string& expression : {calls + "a[1]" + closing, chain}) {
    pykern::ModuleOptions options;
    options.use_cache = false;
    auto module = pykern::Module::load_source(header + "    a[0] = " + expression + "\n", "deep.py", options);
    REQUIRE(module.ok());
    auto kernel = module->kernel("k");
    REQUIRE(kernel.ok());
    auto a = pykern::Array::zeros(pykern::DType::float_(64), {2});
    static_cast<double*>(a.data())[1] = -1.0;
    auto status = kernel->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu), a);
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    CHECK(static_cast<double*>(a.data())[0] == (expression == chain ? -590.0 : 1.0));
  }
}

TEST_CASE("indentation: CPython's errors, and the layouts CPython accepts") {
  Parsed accepted("from numba import cuda\n@cuda.jit\ndef k(a):\n    if a[0]: a[1] = 1; a[2] = 2\n"
                  "    else:\n        a[1] = 2\n    try:\n        pass\n    finally:\n        pass\n"
                  "    s = '''\n" + std::string(300, ' ') + "deep text in a string'''\n"
                  "    x = (1 +\n  2)\n\n# comment\n        # indented comment\n");
  CHECK_FALSE(accepted.diagnostics.has_errors());
  Parsed else_misaligned("def k(a):\n    if a:\n        a = 1\n      else:\n        a = 2\n");
  REQUIRE(else_misaligned.diagnostics.has_errors());
  CHECK(else_misaligned.diagnostics.render().find("unindent does not match") != std::string::npos);
}

#include "pykern/compiler.h"

namespace {
// "LINE:COLUMN: MESSAGE" for the syntax error tree-sitter finds in `text`, as syntax_errors.h
// explains it; "no error" when it finds none.
std::string explained(const std::string& text) {
  SourceFile file("k.py", text);
  auto tree = syntax::SyntaxTree::parse(file);
  REQUIRE(tree.ok());
  if (!ts_node_has_error(tree->root())) return "no error";
  syntax::SyntaxProblem problem = syntax::explain_syntax_error(*tree, tree->root());
  LineColumn at = file.position(problem.where.begin);
  return std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + problem.message;
}
}  // namespace

// Each expectation is what CPython 3.11's compile() says of the same text (line, offset, message).
TEST_CASE("syntax errors are worded and placed as CPython words and places them") {
  CHECK(explained("def k(a)\n    a[0] = 1\n") == "1:9: expected ':'");
  CHECK(explained("if x   \n  pass\n") == "1:8: expected ':'");
  CHECK(explained("if x  # c\n  pass\n") == "1:7: expected ':'");
  CHECK(explained("class C\n    x = 1\n") == "1:8: expected ':'");
  CHECK(explained("for i in range(3)\n    pass\n") == "1:18: expected ':'");
  CHECK(explained("def k:\n    pass\n") == "1:6: expected '('");
  CHECK(explained("x = (1 +\ny = 2\n") == "1:5: '(' was never closed");
  CHECK(explained("x = (1, [2,\n") == "1:9: '[' was never closed");
  CHECK(explained("x = (1 +\n") == "1:5: '(' was never closed");
  CHECK(explained("if (a > 0:\n    pass\n") == "1:10: invalid syntax");
  CHECK(explained("x = 1 +\ny = (\n") == "1:8: invalid syntax");
  CHECK(explained("f(a))\n") == "1:5: unmatched ')'");
  CHECK(explained("x = (1 2)\ny = 1)\n") == "2:6: unmatched ')'");  // a tokenizer error later wins
  CHECK(explained("x = (1 + 2]\n") == "1:11: closing parenthesis ']' does not match opening parenthesis '('");
  CHECK(explained("x = (1,\n  2]\n") == "2:4: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  CHECK(explained("x = 'abc\ny = 1\n") == "1:5: unterminated string literal (detected at line 1)");
  CHECK(explained("x = f(a b)\n") == "1:7: invalid syntax. Perhaps you forgot a comma?");
  CHECK(explained("x = [a.b c.d]\n") == "1:6: invalid syntax. Perhaps you forgot a comma?");
  CHECK(explained("x = f(a, b=1 c)\n") == "1:12: invalid syntax. Perhaps you forgot a comma?");
  CHECK(explained("x = a b\n") == "1:7: invalid syntax");  // outside brackets: no comma hint
  CHECK(explained("if x = 1:\n    pass\n") == "1:4: invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
  CHECK(explained("while a[0] = 1:\n    pass\n") ==
        "1:7: cannot assign to subscript here. Maybe you meant '==' instead of '='?");
  CHECK(explained("len(a) = 1\n") == "1:1: cannot assign to function call here. Maybe you meant '==' instead of '='?");
  CHECK(explained("a + 1 = 2\n") == "1:1: cannot assign to expression here. Maybe you meant '==' instead of '='?");
  CHECK(explained("f(x) = y = 1\n") == "1:1: cannot assign to function call");
  CHECK(explained("x, f() = 1, 2\n") == "1:4: cannot assign to function call here. Maybe you meant '==' instead of '='?");
  CHECK(explained("f(x) += 1\n") == "1:1: 'function call' is an illegal expression for augmented assignment");
  CHECK(explained("a + 1 += 2\n") == "1:1: 'expression' is an illegal expression for augmented assignment");
  CHECK(explained("x = 1 if y\n") == "1:5: expected 'else' after 'if' expression");
  CHECK(explained("x = y ==\n") == "1:9: invalid syntax");
  CHECK(explained("x = (1 +)\n") == "1:9: invalid syntax");
  CHECK(explained("x = a..b\n") == "1:7: invalid syntax");
  CHECK(explained("for i range(3):\n    pass\n") == "1:7: invalid syntax");
  // pykern puts an IndentationError's caret on the line's first character, where CPython's
  // offset is the indentation's last.
  CHECK(explained("def f(a):\n    x = 1\n        y = (1 2)\n") == "3:9: IndentationError: unexpected indent");
  CHECK(explained("def f(a):\n    if a:\n    x = (1 2)\n") ==
        "3:5: IndentationError: expected an indented block after 'if' statement on line 2");
}

TEST_CASE("explaining a syntax error stays fast and safe on hostile text") {
  // One long broken line, and a bracket never closed before thousands of lines: each is
  // searched by halves, not token by token.
  std::string long_line = "x = (" + std::string(200000, '1') + " 2)\n";
  CHECK(explained(long_line).find("invalid syntax") != std::string::npos);
  std::string many_lines = "x = (1 +\n";
  for (int i = 0; i < 5000; ++i) many_lines += "y = " + std::to_string(i) + "\n";
  CHECK(explained(many_lines) == "1:5: '(' was never closed");
  CHECK(explained("x = (") == "1:5: '(' was never closed");
  CHECK(explained(")") == "1:1: unmatched ')'");
  CHECK(explained("'''") == "1:1: unterminated triple-quoted string literal (detected at line 1)");
  CHECK(explained("@\n") == "1:2: invalid syntax");
  // The tokenizer stops at the stray ')' and leaves no end token: looking past an '=' on that
  // line read beyond the token list (found by the fuzzer).
  CHECK(explained("@j='')l") == "1:6: unmatched ')'");
}

TEST_CASE("numba-cuda's testing options are accepted with a warning, not refused") {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  auto result = pykern::compile_source(
      "from numba import cuda\n@cuda.jit('void(float64[:])', _dbg_optnone=True, _dbg_extend_lifetimes=True, "
      "lto=True)\ndef k(a):\n    a[0] = 1\n", "dbg.py", options);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
  CHECK(result->warnings.find("'_dbg_optnone' is accepted and has no effect") != std::string::npos);
  CHECK(result->warnings.find("warning:") != std::string::npos);
}

#include <chrono>

#include "syntax/nfkc.h"

namespace {
// Seconds to translate a kernel file with `lines` own-line comments, at module level or inside
// the kernel's block, best of three.
double translate_seconds(int lines, bool in_block) {
  std::string text = "from numba import cuda\n\n@cuda.jit\ndef k(a):\n    a[0] = 1\n";
  for (int i = 0; i < lines; ++i) text += in_block ? "    # a comment line\n" : "# a comment line\n";
  text += "    a[1] = 2\n";  // still in k: the comments did not end its block
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(int64[:])"}};
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    auto started = std::chrono::steady_clock::now();
    auto result = pykern::compile_source(text, "comments.py", options);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
    CHECK(result->cuda_source.find("PK_AT(py_a, 1LL) = 2LL") != std::string::npos);
  }
  return best;
}
}  // namespace

// The absolute bounds below are for an optimised build; sanitizers make translation several
// times slower (the ratios, which catch an n^2, hold either way).
#if defined(__SANITIZE_ADDRESS__)
constexpr double build_slowness = 10;
#else
constexpr double build_slowness = 1;
#endif

TEST_CASE("translation time grows linearly with own-line comments, at module level and inside a block") {
  // Quadratic before: 10k lines took 2 s and 80k more than 120 s (each comment scanned again per
  // child index, and per newline by tree-sitter's scanner). Linear: 4x the lines, about 4x the
  // time; the bound is generous for loaded CI machines, a return of n^2 gives 16x.
  for (bool in_block : {false, true}) {
    CAPTURE(in_block);
    double small = std::max(translate_seconds(10000, in_block), 1e-3);
    double large = translate_seconds(40000, in_block);
    CHECK(large < 1.0 * build_slowness);
    CHECK(large / small < 10.0);
  }
}

TEST_CASE("translation time grows linearly with the statements of one long line") {
  // `x = 1; x = 1; ...` on one line: each statement's indentation was found by counting the
  // line's code points up to it, n^2 over the line (160k statements: 21 s).
  auto seconds = [](int statements) {
    std::string text = "from numba import cuda\n";
    for (int i = 0; i < statements; ++i) text += "x = 1; ";
    text += "\n@cuda.jit\ndef k(a):\n    a[0] = x\n";
    pykern::CompileOptions options;
    options.emit = pykern::EmitKind::cuda;
    options.use_cache = false;
    double best = 1e9;
    for (int run = 0; run < 3; ++run) {
      auto started = std::chrono::steady_clock::now();
      auto result = pykern::compile_source(text, "line.py", options);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      CHECK(result.ok());
    }
    return best;
  };
  double small = std::max(seconds(10000), 1e-3);
  double large = seconds(40000);
  CHECK(large < 2.0 * build_slowness);
  CHECK(large / small < 10.0);
}

TEST_CASE("identifiers are NFKC-normalised as Python's: ligatures, mathematical letters, combining marks") {
  CHECK(syntax::nfkc_identifier("scale") == "scale");
  CHECK(syntax::nfkc_identifier("\xef\xac\x81") == "fi");                                      // ﬁ
  CHECK(syntax::nfkc_identifier("\xf0\x9d\x90\x92\xf0\x9d\x90\x82\xf0\x9d\x90\x80\xf0\x9d\x90\x8b\xf0\x9d\x90\x84") == "SCALE");
  CHECK(syntax::nfkc_identifier("e\xcc\x81") == "\xc3\xa9");                                   // e + U+0301: é
  CHECK(syntax::nfkc_identifier("\xe2\x84\x8c") == "H");                                       // ℌ
  CHECK(syntax::nfkc_identifier("a\xcc\xa3\xcc\x87") == "\xe1\xba\xa1\xcc\x87");               // marks reordered, then composed
  CHECK(syntax::nfkc_identifier("\xe1\x84\x80\xe1\x85\xa1") == "\xea\xb0\x80");               // Hangul jamo compose: 가
  CHECK(syntax::nfkc_identifier("\xef\xbd\x81") == "a");                                       // fullwidth a
  // One name to the module model and to lowering: the parameter ﬁ is the `fi` the body stores to,
  // and the bold 𝐒𝐂𝐀𝐋𝐄 reads the global SCALE.
  Parsed p("from numba import cuda\nSCALE = 3\n@cuda.jit\ndef k(\xef\xac\x81):\n    fi[0] = "
           "\xf0\x9d\x90\x92\xf0\x9d\x90\x82\xf0\x9d\x90\x80\xf0\x9d\x90\x8b\xf0\x9d\x90\x84\n");
  CHECK_FALSE(p.diagnostics.has_errors());
  CHECK(p.dump("k") == "def k(fi):\n  fi[0] = SCALE\n");
}

TEST_CASE("CPython's rules that tree-sitter does not check leave valid Python alone") {
  // Each of these compiles under CPython 3.11: nothing here may be refused.
  Parsed accepted(
      "\"\"\"Module docstring.\"\"\"\nfrom __future__ import annotations, division\n# comment\n"
      "from numba import cuda\nx = 00 + 0_0 + 0 + 0x1F + 0o7 + 0b1 + 09.5 + 09j + 09e1 + 1_000\n"
      "y = __debug__\nmatch = 1\ncase = 2\ntype = 3\n_ = 4\n"
      "def f(a, b=1, *args, c, d=2, **kwargs): pass\n"
      "s = '''\n# not a comment\n''' + \"#\" + '\\''\n"
      "@cuda.jit\ndef k(a):\n    if a[0]: pass\n    for i in range(1): a[i] = 1\n    else: pass\n");
  CHECK_MESSAGE(!accepted.diagnostics.has_errors(), accepted.diagnostics.render());
  // And CPython's refusals, one each.
  const std::pair<const char*, const char*> refused[] = {
      {"def f(a, *, b, **a): pass\n", "duplicate argument 'a' in function definition"},
      {"f = lambda a, a: 1\n", "duplicate argument 'a' in function definition"},
      {"for __debug__ in range(3): pass\n", "cannot assign to __debug__"},
      {"x.__debug__ = 1\n", "cannot assign to __debug__"},
      {"del __debug__\n", "cannot delete __debug__"},
      {"import os as __debug__\n", "cannot assign to __debug__"},
      {"x = 0_7\n", "leading zeros"},
      {"class A:\nx = 1\n", "expected an indented block after class definition on line 1"},
      {"with a:\nx = 1\n", "expected an indented block after 'with' statement on line 1"},
      {"try:\n    pass\nexcept E:\nx = 1\n", "expected an indented block after 'except' statement on line 3"},
      {"if x:\n\n# c\n", "expected an indented block after 'if' statement on line 1"},
      {"x = 1\nfrom __future__ import annotations\n", "from __future__ imports must occur at the beginning of the file"},
      {"from __future__ import nonsense\n", "future feature nonsense is not defined"},
      {"x = 'abc\ny = 1\n", "unterminated string literal (detected at line 1)"},
      {"x = lambda: 1\ndef await(): pass\n", "'await' is a keyword"},
  };
  for (auto [text, message] : refused) {
    CAPTURE(text);
    Parsed p(text);
    CHECK(p.diagnostics.render().find(message) != std::string::npos);
  }
}

TEST_CASE("imports under try/except ImportError resolve as when they succeed; the handlers bind nothing") {
  Parsed p(
      "try:\n    from numba import cuda, float32 as f32\n    HAVE_CUDA = True\nexcept ImportError:\n"
      "    cuda = None\n    HAVE_CUDA = False\nelse:\n    import math\nfinally:\n    import numpy as np\n"
      "try:\n    from math import nan\nexcept (ImportError, AttributeError) as e:\n    nan = float('nan')\n"
      "try:\n    import cupy\nexcept:\n    pass\n"
      "@cuda.jit\ndef k(a):\n    a[0] = nan\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  CHECK(p.module.imported("cuda") == "numba.cuda");
  CHECK(p.module.imported("f32") == "numba.float32");
  CHECK(p.module.imported("math") == "math");
  CHECK(p.module.imported("np") == "numpy");
  CHECK(p.module.imported("nan") == "math.nan");
  CHECK(p.module.imported("cupy") == "cupy");
  CHECK_FALSE(p.module.opaque_binding("cuda"));
  CHECK_FALSE(p.module.opaque_binding("nan"));
  CHECK(p.module.has_global("HAVE_CUDA"));
  REQUIRE(p.module.function("k"));
  CHECK(p.module.function("k")->decoration.role == frontend::FunctionRole::kernel);
}

TEST_CASE("module-level if: the branch Python takes at import is scanned, the others bind nothing") {
  Parsed p(
      "try:\n    from numba import cuda\n    HAVE_CUDA = True\nexcept ImportError:\n    cuda = None\n    HAVE_CUDA = False\n"
      "import numba\nfrom packaging.version import Version\nMODE = 2\n"
      "if HAVE_CUDA and MODE >= 2:\n    @cuda.jit(device=True)\n    def a(x):\n        return x\n"
      "else:\n    def a(x):\n        return -x\n"
      "if cuda is None:\n    raise ImportError('no cuda')\n"
      "if Version(numba.__version__) < Version('0.57'):\n    OLD = 1\n"
      "elif numba.__version__ >= '0.60' and (0, 60) <= (0, 68, 1):\n    @cuda.jit\n    def k(x):\n        x[0] = a(1)\n"
      "else:\n    NEWER = 3\n"
      "if not HAVE_CUDA:\n    K = 1\nelse:\n    K = 2\n"
      "if __name__ == '__main__':\n    k[1, 1](None)\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  REQUIRE(p.module.function("a"));
  CHECK(p.module.function("a")->decoration.role == frontend::FunctionRole::device);
  REQUIRE(p.module.function("k"));
  CHECK(p.module.function("k")->decoration.role == frontend::FunctionRole::kernel);
  CHECK_FALSE(p.module.has_global("OLD"));
  CHECK_FALSE(p.module.has_global("NEWER"));
  CHECK(p.module.has_global("K"));
  CHECK(p.module.ast()[p.module.global_value("K", p.diagnostics)].int_value == 2);
}

TEST_CASE("a kernel under an import-time condition pykern cannot decide is an error at its decorator") {
  Parsed p(
      "import os\nfrom numba import cuda\n"
      "if cuda.is_available():\n    @cuda.jit\n    def k(a):\n        a[0] = 1\n"
      "try:\n    import foo\nexcept KeyError:\n    pass\n"
      "if os.environ.get('X'):\n    gpu = cuda\n@gpu.jit(device=True)\ndef d(x):\n    return x\n"
      "if os.environ.get('Y'):\n    def host(x):\n        return x\n");
  std::string text = p.diagnostics.render();
  CHECK(text.find("k.py:4:5: error: cannot tell whether '@cuda.jit' (kernel 'k') is defined: it is under the "
                  "import-time condition on line 3") != std::string::npos);
  CHECK(text.find("k.py:13:1: error: cannot resolve the decorator '@gpu.jit(device=True)': 'gpu' is bound on line 11") !=
        std::string::npos);
  CHECK(text.find("host") == std::string::npos);  // a plain function there is host code
  CHECK(p.module.opaque_binding("foo"));  // the try was not decided: what it binds is opaque
  // typing.TYPE_CHECKING is False when the module runs; a flag imported from the user's own
  // module may be anything.
  Parsed flags(
      "from typing import TYPE_CHECKING\nfrom numba import cuda\nfrom config import USE_GPU\n"
      "if TYPE_CHECKING:\n    @cuda.jit\n    def ghost(a):\n        pass\n"
      "if USE_GPU:\n    @cuda.jit\n    def k(a):\n        a[0] = 1\n");
  CHECK_FALSE(flags.module.function("ghost"));
  CHECK(flags.diagnostics.render().find("k.py:9:5: error: cannot tell whether '@cuda.jit' (kernel 'k') is defined") !=
        std::string::npos);
  CHECK(flags.diagnostics.render().find("ghost") == std::string::npos);
}

TEST_CASE("import-time conditions: numba.version_info, Version parses, `is True/False/None`, constants through globals") {
  Parsed p(
      "import numba\nfrom numba import cuda\n"
      "try:\n    from packaging.version import Version\nexcept ImportError:\n"
      "    from distutils.version import LooseVersion as Version\n"
      "NEW = Version(numba.__version__) >= Version('0.54')\nFLAG = NEW\n"
      "if numba.version_info.short >= (0, 50) and not FLAG is False and numba.version_info.major == 0:\n"
      "    @cuda.jit(device=True)\n    def f(x):\n        return x\n"
      "if Version('1.0') == Version('1') and -1 < 0 and 'a' < 'b' and (1, 2) < (1, 2, 0) and None is None:\n"
      "    A = 1\n"
      "if Version('0.68.1') > Version(numba.__version__) or 2.5 > 3:\n    B = 1\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  REQUIRE(p.module.function("f"));
  CHECK(p.module.function("f")->decoration.role == frontend::FunctionRole::device);
  CHECK(p.module.has_global("A"));
  CHECK_FALSE(p.module.has_global("B"));
}

TEST_CASE("kernels and device functions made by calling the decorator on a module function") {
  Parsed p(
      "from numba import cuda, vectorize\n"
      "def f(x):\n    return x\n"
      "def body(a):\n    a[0] = g(1)\n"
      "g = cuda.jit(device=True)(f)\n"
      "h = cuda.jit(f, device=True, inline=True)\n"
      "k = cuda.jit('void(float32[:])', fastmath=True)(body)\n"
      "k2 = cuda.jit(body)\n"
      "u = vectorize(['float64(float64)'], target='cuda')(f)\n"
      "f = cuda.jit(f, device=True)\n"
      "n = cuda.jit(device=True)\nm = something(f)\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  using frontend::FunctionRole;
  REQUIRE(p.module.function("g"));
  CHECK(p.module.function("g")->decoration.role == FunctionRole::device);
  CHECK(p.module.function("h")->decoration.role == FunctionRole::device);
  const frontend::ModuleFunction* k = p.module.function("k");
  REQUIRE(k);
  CHECK(k->decoration.role == FunctionRole::kernel);
  CHECK(k->decoration.fastmath == FastMath::all());
  CHECK(k->decoration.signatures.size() == 1);
  CHECK(p.module.function("k2")->decoration.role == FunctionRole::kernel);
  CHECK(p.module.function("k2")->decoration.signatures.empty());
  CHECK(p.module.function("u")->decoration.role == FunctionRole::vectorize);
  CHECK(p.module.function("f")->decoration.role == FunctionRole::device);  // rebound to its jitted self
  CHECK(p.module.function("body")->decoration.role == FunctionRole::undecorated);
  CHECK(p.dump("k") == "def k(a):\n  a[0] = g(1)\n");  // body's definition, named as bound
  CHECK_FALSE(p.module.function("n"));  // a decorator kept for later: not a function yet
  CHECK(p.module.has_global("n"));
  CHECK_FALSE(p.module.function("m"));
}

TEST_CASE("static-method kernels and device functions of a class are named Class.method") {
  Parsed p(
      "from numba import cuda\n"
      "class Solver:\n    N = 3\n"
      "    @staticmethod\n    @cuda.jit\n    def _step(a):\n        a[0] = 1\n"
      "    @staticmethod\n    @cuda.jit(device=True)\n    def _dev(x):\n        return x\n"
      "    @staticmethod\n    def host(a):\n        Solver._step[1, 1](a)\n"
      "    @cuda.jit\n    def method(self, a):\n        pass\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  REQUIRE(p.module.function("Solver._step"));
  CHECK(p.module.function("Solver._step")->decoration.role == frontend::FunctionRole::kernel);
  REQUIRE(p.module.function("Solver._dev"));
  CHECK(p.module.function("Solver._dev")->decoration.role == frontend::FunctionRole::device);
  CHECK_FALSE(p.module.function("Solver.host"));
  CHECK_FALSE(p.module.function("Solver.method"));  // not static: self has no type in a kernel
  CHECK_FALSE(p.module.function("_step"));
  CHECK(p.module.opaque_binding("Solver"));
  CHECK(p.dump("Solver._step") == "def Solver._step(a):\n  a[0] = 1\n");
}

TEST_CASE("kernels returned by a factory bind the factory's parameters to the call's arguments") {
  Parsed p(
      "import operator\nfrom numba import cuda\n"
      "def make(op, scale=1.0):\n    '''doc'''\n    @cuda.jit\n    def k(a, out):\n"
      "        op = op\n        out[0] = op(a[0], a[1]) * scale\n    return k\n"
      "def make_device(f):\n    @cuda.jit(device=True)\n    def d(x):\n        return f(x)\n    return d\n"
      "def not_a_factory(op):\n    for i in range(2):\n        op = op\n    @cuda.jit\n    def k(a):\n        pass\n    return k\n"
      "add = make(operator.add)\nmul = make(operator.mul, scale=2.0)\nneg = make_device(operator.neg)\n"
      "def make_flag(device):\n    @cuda.jit(device=device)\n    def f(x):\n        return x\n    return f\n"
      "other = not_a_factory(1)\nbad = make(1, 2, 3)\nflagged = make_flag(True)\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  REQUIRE(p.module.function("add"));
  CHECK(p.module.function("add")->decoration.role == frontend::FunctionRole::kernel);
  // `op = op` makes op a local of k (Python would fail on it): it is left alone.
  CHECK(p.dump("add") == "def add(a, out):\n  op = op\n  out[0] = (op(a[0], a[1]) * 1)\n");
  CHECK(p.dump("mul") == "def mul(a, out):\n  op = op\n  out[0] = (op(a[0], a[1]) * 2)\n");
  REQUIRE(p.module.function("neg"));
  CHECK(p.module.function("neg")->decoration.role == frontend::FunctionRole::device);
  CHECK(p.dump("neg") == "def neg(x):\n  return operator.neg(x)\n");
  CHECK_FALSE(p.module.function("other"));  // a loop in the factory: not followed
  CHECK_FALSE(p.module.function("bad"));
  CHECK_FALSE(p.module.function("flagged"));  // its decorator reads a parameter: left to the host
}

TEST_CASE("a list comprehension becomes a list filled by a loop before its statement, its variables hidden") {
  Parsed p(
      "def k(a, n):\n"
      "    x = 5\n"
      "    ys = [x * j for x in a if x > 0 for j in range(x)]\n"
      "    return x + len(ys)\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  std::string text = p.dump("k");
  CAPTURE(text);
  // The loop variables are renamed, so the function's own x (5) is untouched.
  CHECK(text.find("comprehension.1 = []") != std::string::npos);
  CHECK(text.find("for x.1 in a") != std::string::npos);
  CHECK(text.find("if (x.1 > 0)") != std::string::npos);
  CHECK(text.find("for j.1 in range(x.1)") != std::string::npos);
  CHECK(text.find("comprehension.1.append((x.1 * j.1))") != std::string::npos);
  CHECK(text.find("ys = comprehension.1") != std::string::npos);
  CHECK(text.find("return (x + len(ys))") != std::string::npos);
  CHECK(text.find("comprehension.1 = []") < text.find("ys = comprehension.1"));
}

TEST_CASE("a comprehension inside a comprehension runs at each step of the outer one; one in a lambda at each call") {
  Parsed p(
      "def k(n):\n"
      "    rows = [[i + j for j in range(i)] for i in range(n)]\n"
      "    f = lambda m: [m * i for i in range(m)]\n"
      "    return rows, f(3)\n");
  CHECK_MESSAGE(!p.diagnostics.has_errors(), p.diagnostics.render());
  std::string text = p.dump("k");
  CAPTURE(text);
  CHECK(text.find("for i.1 in range(n)") != std::string::npos);
  CHECK(text.find("comprehension.2 = []") > text.find("for i.1 in range(n)"));  // inside the outer loop
  CHECK(text.find("comprehension.1.append(comprehension.2)") != std::string::npos);
}

TEST_CASE("inner functions capture what they read of the enclosing function, passed by keyword at their calls") {
  Parsed p(
      "from numba import cuda\n"
      "@cuda.jit\n"
      "def k(a, s):\n"
      "    n = a.shape[0]\n"
      "    def clamp(j):\n"
      "        return min(j, n - 1)\n"
      "    def get(j):\n"
      "        return a[clamp(j)] * s\n"
      "    f = lambda x, y=2: x * y + n\n"
      "    a[0] = get(1) + f(2)\n");
  std::string k = p.dump("k");
  CHECK_FALSE(p.diagnostics.has_errors());
  REQUIRE(p.module.ast().functions.size() == 3);
  auto captured = [&](const std::string& name) {
    for (const ast::Function& f : p.module.ast().functions)
      if (f.name == name) return f.captured;
    return std::vector<std::string>{"<none>"};
  };
  // get calls clamp, so it also reads what clamp captures, and clamp itself.
  CHECK(captured("clamp") == std::vector<std::string>{"n"});
  CHECK(captured("get") == std::vector<std::string>{"a", "clamp", "n", "s"});
  CHECK(captured("f") == std::vector<std::string>{"n"});
  const ast::Function& get = p.module.ast().functions[1];
  CHECK(ast::dump(p.module.ast(), get) == "def get(j, a, clamp, n, s):\n  return (a[clamp(j, n=n)] * s)\n");
  CHECK_MESSAGE(k.find("get(1, a=a, clamp=clamp, s=s, n=n)") != std::string::npos, k);
  CHECK(k.find("f(2, n=n)") != std::string::npos);
}

TEST_CASE("an inner function that calls itself is refused, as Numba refuses it") {
  Parsed p(
      "from numba import cuda\n"
      "@cuda.jit\n"
      "def k(a):\n"
      "    def fact(m):\n"
      "        return 1 if m <= 1 else m * fact(m - 1)\n"
      "    a[0] = fact(5)\n");
  p.dump("k");
  REQUIRE(p.diagnostics.all().size() == 1);
  CHECK(p.diagnostics.all()[0].message.find("inner function 'fact' calls itself") != std::string::npos);
}
