// Which runtime headers a program includes: core.cuh always; cmath.cuh and fp16.cuh only where
// a value of the program is complex or float16. Every function of those two takes or returns
// such a value, so a program without one cannot call them, and NVRTC is spared parsing them.
#include "emit/emit_cuda.h"
#include "emit/try_blocks.h"

namespace pykern::emit {

namespace {

struct TypeCensus {
  bool complex = false;
  bool float16 = false;
  bool list = false;
  bool text = false;  // a string value (host only)
  void visit(const sema::Type& type) {
    if (type.is(sema::TypeKind::complex)) complex = true;
    if (type.is(sema::TypeKind::floating) && type.bits == 16) float16 = true;
    if (type.is(sema::TypeKind::list) || type.is(sema::TypeKind::dict)) list = true;  // counted storage
    if (type.is(sema::TypeKind::string)) text = true;
    for (const sema::Type& element : type.elements) visit(element);
  }
};

TypeCensus census_of(const ir::Program& program) {
  TypeCensus census;
  for (const ir::Function& f : program.functions) {
    for (const ir::Local& l : f.locals) census.visit(l.type);
    for (const sema::Type& t : f.argument_types) census.visit(t);
    census.visit(f.return_type);
    for (size_t i = 0; i < f.exprs.size(); ++i) census.visit(f.exprs[ir::ExprId(static_cast<uint32_t>(i))].type);
  }
  for (const ir::ConstantArray& array : program.constant_arrays) census.visit(array.dtype);
  return census;
}

// A host call that writes what it returns for the caller (a nested tuple, an Optional, ...):
// the writer grows its buffer with new[], which only the C++ runtime provides.
bool exports_values(const ir::Program& program) {
  for (const ir::Function& f : program.functions)
    for (size_t i = 0; i < f.exprs.size(); ++i) {
      const ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
      if (e.kind == ir::ExprKind::call && e.op == ir::Op::export_value) return true;
    }
  return false;
}

}  // namespace

bool uses_cxx_runtime(const ir::Program& program) {
  for (const ir::Function& f : program.functions)
    if (f.parallel) return true;
  // Owning arrays have destructors, which an error unwinds through; a try statement catches it.
  // Strings too: a str is a counted reference, released as an error unwinds.
  return program.owning_arrays || census_of(program).list || has_try_statements(program) ||
         (program.host_calls && (census_of(program).text || exports_values(program)));
}

std::vector<std::string> runtime_includes(const ir::Program& program) {
  TypeCensus census = census_of(program);
  std::vector<std::string> headers = {"pykern/core.cuh"};
  if (census.complex) headers.push_back("pykern/cmath.cuh");
  if (census.float16) headers.push_back("pykern/fp16.cuh");
  return headers;
}

}  // namespace pykern::emit
