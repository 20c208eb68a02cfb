#include "compiler/pipeline.h"
#include "pykern/version.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "jit/nvrtc.h"

namespace pykern::compiler {

using frontend::FunctionRole;

Result<std::vector<sema::EntryRequest>> collect_entries(frontend::Module& module, const CompileOptions& options,
                                                        std::vector<SourceFile>& signature_files,
                                                        std::vector<std::string>& checked_only,
                                                        Diagnostics& diagnostics) {
  std::set<std::string> wanted(options.kernels.begin(), options.kernels.end());
  for (const std::string& name : wanted) {
    frontend::ModuleFunction* function = module.function(name);
    if (!function || function->decoration.role == FunctionRole::undecorated)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("{}: no kernel named '{}'", module.file().display_name(), name));
  }
  std::map<std::string, std::vector<const KernelSignature*>> given;
  for (const KernelSignature& signature : options.signatures) {
    frontend::ModuleFunction* function = module.function(signature.function);
    if (!function || function->decoration.role == FunctionRole::undecorated)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("--sig names '{}', which is not a kernel in {}", signature.function,
                                     module.file().display_name()));
    given[signature.function].push_back(&signature);
  }
  signature_files.reserve(options.signatures.size() + options.functions.size());
  std::vector<sema::EntryRequest> entries;
  for (frontend::ModuleFunction* function : module.functions_in_order()) {
    FunctionRole role = function->decoration.role;
    if (role == FunctionRole::undecorated || role == FunctionRole::device) continue;
    if (!wanted.empty() && !wanted.count(function->name)) continue;
    const ast::Function* lowered = module.lowered_function(function->name, diagnostics);
    if (lowered == nullptr) continue;
    bool any = false;
    for (const KernelSignature* signature : given[function->name]) {
      signature_files.emplace_back("--sig " + function->name, signature->signature);
      auto parsed = sema::parse_signature(signature_files.back(), diagnostics);
      if (parsed) entries.push_back({function->name, *parsed, lowered->name_range});
      any = true;
    }
    if (given[function->name].empty()) {
      for (ast::ExprId expr : function->decoration.signatures) {
        auto parsed = sema::signature_from_decorator(module, expr, diagnostics);
        if (parsed) entries.push_back({function->name, *parsed, module.ast()[expr].range});
        any = true;
      }
    }
    if (!any) checked_only.push_back(function->name);
  }
  // @jit functions typed for a host call (Module::function).
  for (const KernelSignature& request : options.functions) {
    frontend::ModuleFunction* function = module.function(request.function);
    if (!function || function->decoration.role != FunctionRole::device)
      return Error::make(ErrorKind::invalid_argument, fmt::format("{}: no @jit function named '{}'",
                                                                  module.file().display_name(), request.function));
    const ast::Function* lowered = module.lowered_function(function->name, diagnostics);
    if (lowered == nullptr) continue;
    // An eager signature in the decorator (@jit(float64(int32, int32))) is the only one Numba
    // compiles: the call's arguments convert to it.
    if (!function->decoration.signatures.empty()) {
      ast::ExprId declared = function->decoration.signatures.front();
      auto parsed = sema::signature_from_decorator(module, declared, diagnostics);
      if (parsed) entries.push_back({function->name, *parsed, module.ast()[declared].range});
      continue;
    }
    signature_files.emplace_back("arguments of " + function->name, request.signature);
    auto parsed = sema::parse_signature(signature_files.back(), diagnostics);
    if (parsed) entries.push_back({function->name, *parsed, lowered->name_range});
  }
  return entries;
}

std::string frontend_key(const std::string& text, const std::string& file_name, const CompileOptions& options,
                         const std::string& arch, const std::string& nvrtc_version) {
  std::vector<std::string> parts = {version(),     embed::runtime_headers_hash(), file_name, text, arch,
                                    "nvrtc=" + nvrtc_version, std::to_string(static_cast<int>(options.emit))};
  for (const std::string& kernel : options.kernels) parts.push_back("kernel=" + kernel);
  for (const KernelSignature& s : options.signatures) parts.push_back("sig=" + s.function + "=" + s.signature);
  for (const KernelSignature& s : options.functions) parts.push_back("fn=" + s.function + "=" + s.signature);
  if (options.debug) parts.push_back("debug");
  return cache::cache_key(parts);
}

std::string frontend_key(const std::string& text, const std::string& file_name, const CompileOptions& options,
                         const std::string& arch) {
  auto nvrtc = jit::nvrtc_version();
  return frontend_key(text, file_name, options, arch, nvrtc.ok() ? *nvrtc : std::string("none"));
}

void fill_from_cache(const cache::CacheEntry& entry, CompileOutput& output) {
  output.binary = entry.binary;
  output.cuda_source = entry.cuda_source;
  output.cache_hit = true;
  output.frontend_cache_hit = true;
  if (!entry.record.contains("kernels")) return;
  for (const auto& k : entry.record["kernels"]) {
    CompiledKernel kernel{k.value("function", ""), k.value("symbol", ""), k.value("signature", ""), {},
                          k.value("debug", false), k.value("cooperative", false), k.value("prints", false)};
    for (const auto& p : k.value("parameters", nlohmann::json::array())) {
      ParameterInfo info;
      info.name = p.value("name", "");
      info.is_array = p.value("array", false);
      std::string descr = p.value("dtype", "<i8");
      auto dtype = DType::from_descr(descr);
      info.dtype = dtype.ok() ? *dtype : DType::int_(64);
      info.ndim = p.value("ndim", 0);
      info.layout = p.value("layout", "A")[0];
      kernel.parameters.push_back(std::move(info));
    }
    output.kernels.push_back(std::move(kernel));
  }
}

Result<std::vector<std::string>> nvrtc_options(const ir::Program& program) {
  std::optional<std::vector<std::string>> chosen;
  for (int index : program.kernels) {
    const ir::FunctionOptions& o = program.functions[index].options;
    std::vector<std::string> flags;
    if (o.debug) flags.insert(flags.end(), {"-G", "-DPK_DEBUG=1"});
    else if (o.lineinfo) flags.push_back("-lineinfo");
    if (o.fastmath) flags.push_back("--use_fast_math");
    if (o.max_registers > 0) flags.push_back(fmt::format("-maxrregcount={}", o.max_registers));
    // Numba's opt=N is the optimisation level of the device code generator: ptxas here.
    if (!o.debug && o.opt < 3) flags.push_back(fmt::format("--ptxas-options=-O{}", o.opt));
    if (chosen && *chosen != flags)
      return Error::make(ErrorKind::invalid_argument,
                         "the kernels asked for need different compiler options (debug, fastmath, lineinfo, "
                         "max_registers); compile them separately with --kernel NAME");
    chosen = flags;
  }
  return chosen.value_or(std::vector<std::string>{});
}

namespace {
DType dtype_of(const sema::Type& t) {
  switch (t.kind) {
    case sema::TypeKind::boolean: return DType::boolean();
    case sema::TypeKind::integer: return t.is_signed ? DType::int_(t.bits) : DType::uint(t.bits);
    case sema::TypeKind::floating: return DType::float_(t.bits);
    case sema::TypeKind::complex: return DType::complex(t.bits);
    case sema::TypeKind::record: {
      DType record{ScalarKind::record, t.record_size, {}};
      for (size_t i = 0; i < t.elements.size(); ++i)
        record.fields.push_back({t.field_names[i], {dtype_of(t.elements[i])}, t.offsets[i], t.field_shapes[i]});
      return record;
    }
    default: return DType::int_(64);
  }
}
ParameterInfo parameter_info(const sema::Type& t, std::string name = {}) {
  ParameterInfo info;
  info.name = std::move(name);
  info.is_array = t.is(sema::TypeKind::array);
  info.dtype = dtype_of(info.is_array ? t.dtype() : t);
  info.ndim = info.is_array ? t.ndim : 0;
  info.layout = info.is_array ? sema::to_string(t.layout)[0] : 'A';
  return info;
}
}  // namespace

void describe_kernels(const ir::Program& program, const emit::EmittedSource& emitted, CompileOutput& output) {
  size_t next = 0;
  for (const ir::Function& f : program.functions) {
    if (!f.is_kernel) continue;
    const emit::KernelSymbol& symbol = emitted.kernels.at(next++);
    CompiledKernel kernel{symbol.python_name, symbol.symbol, symbol.signature, {}, f.options.debug, f.syncs_grid,
                          f.prints};
    for (int index : f.parameters) kernel.parameters.push_back(parameter_info(f.locals[index].type, f.locals[index].name));
    output.kernels.push_back(std::move(kernel));
  }
}

// What each @jit function typed for a host call returns (CompileOptions::functions).
void describe_functions(const ir::Program& program, CompileOutput& output) {
  for (int index : program.kernels) {
    const ir::Function& f = program.functions[index];
    if (f.is_kernel) continue;
    FunctionReturn r;
    r.function = f.python_name;
    r.signature = emit::signature_text(f);
    r.type = sema::to_string(f.return_type);
    for (int index : f.parameters) r.parameters.push_back(parameter_info(f.locals[index].type, f.locals[index].name));
    sema::Type value = f.return_type;
    if (value.is(sema::TypeKind::optional)) {
      r.is_optional = true;
      value = value.elements[0];
    }
    std::vector<sema::Type> parts;
    if (value.is(sema::TypeKind::list)) {
      r.is_list = true;
      parts = {value.elements[0]};
    } else if (value.is(sema::TypeKind::tuple)) {
      r.is_tuple = true;
      parts = value.elements;
    } else if (!value.is(sema::TypeKind::none) && !value.is(sema::TypeKind::void_)) {
      parts = {value};
    }
    for (const sema::Type& part : parts) {
      bool scalar = part.is_numeric() && !part.is(sema::TypeKind::record);
      if (!scalar) r.returns_other = true;
      r.parts.push_back(scalar ? dtype_of(part) : DType::int_(64));
    }
    output.functions.push_back(std::move(r));
  }
}

void describe_generators(frontend::Module& module, Diagnostics& diagnostics, CompileOutput& output) {
  for (frontend::ModuleFunction* f : module.functions_in_order()) {
    FunctionRole role = f->decoration.role;
    if (role != FunctionRole::vectorize && role != FunctionRole::guvectorize && role != FunctionRole::reduce) continue;
    GeneratorFunction g;
    g.name = f->name;
    g.kind = role == FunctionRole::vectorize ? "vectorize" : role == FunctionRole::guvectorize ? "guvectorize" : "reduce";
    g.layout = f->decoration.gufunc_layout;
    if (const ast::Function* lowered = module.lowered_function(f->name, diagnostics))
      for (const ast::Parameter& p : lowered->parameters) g.parameters.push_back(p.name);
    for (ast::ExprId expr : f->decoration.signatures) {
      auto signature = sema::signature_from_decorator(module, expr, diagnostics);
      if (!signature) continue;
      GeneratorSignature described;
      for (const sema::Type& t : signature->arguments) described.arguments.push_back(parameter_info(t));
      if (signature->return_type && signature->return_type->is_scalar()) described.result = dtype_of(*signature->return_type);
      g.signatures.push_back(std::move(described));
    }
    output.generators.push_back(std::move(g));
  }
}

std::string types_report(const SourceFile& file, const ir::Program& program) {
  std::string out;
  for (const ir::Function& f : program.functions) {
    // Which locals each line assigns, with their final types.
    std::map<uint32_t, std::set<std::string>> assigned;
    for (size_t i = 0; i < f.stmts.size(); ++i) {
      const ir::Stmt& s = f.stmts[ir::StmtId(static_cast<uint32_t>(i))];
      if (s.kind != ir::StmtKind::assign && s.kind != ir::StmtKind::declare_array) continue;
      int local = s.kind == ir::StmtKind::assign
                      ? (f[s.target].kind == ir::ExprKind::local ? f[s.target].local : -1)
                      : s.local;
      if (local < 0 || f.locals[local].is_temporary) continue;
      assigned[s.line].insert(f.locals[local].name + ": " + sema::to_string(f.locals[local].type));
    }
    out += fmt::format("# {} {}{} -> {}\n", f.is_kernel ? "kernel" : "function", f.python_name,
                       emit::signature_text(f), sema::to_string(f.return_type));
    LineColumn first = file.position(f.range.begin), last = file.position(f.range.end);
    for (uint32_t line = first.line; line <= last.line; ++line) {
      out += fmt::format("{:>5} | {}\n", line, file.line_text(line));
      if (line == f.first_line)
        for (int p : f.parameters)
          out += fmt::format("      |     # {}: {}\n", f.locals[p].name, sema::to_string(f.locals[p].type));
      for (const std::string& note : assigned[line]) out += fmt::format("      |     # {}\n", note);
    }
    out += "\n";
  }
  return out;
}

}  // namespace pykern::compiler
