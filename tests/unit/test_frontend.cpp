#include <doctest/doctest.h>

#include "frontend/module.h"
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
  CHECK(k->decoration.fastmath);
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
