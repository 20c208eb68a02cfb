#include "compiler/pipeline.h"
#include "pykern/version.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "jit/nvrtc.h"
#include "jit/nvrtc_identity.h"

namespace pykern::compiler {

using frontend::FunctionRole;

Status check_request(const Request& request, CompileOutput& output) {
  const CompileOptions& options = request.options;
  if (request.text.size() > max_source_bytes)
    return Error::make(ErrorKind::invalid_argument, fmt::format("{}: {} bytes of source is more than the {} MiB pykern "
                                                                "translates",
                                                                request.file_name, request.text.size(),
                                                                max_source_bytes >> 20));
  if (!options.arch.empty() && options.emit != EmitKind::cuda)
    if (auto valid = jit::check_arch_form(options.arch); !valid.ok()) return valid.error();
  output.arch = options.arch.empty() ? default_arch : options.arch;
  return ok_status();
}

std::optional<cache::KernelCache> open_cache(const Request& request, CompileOutput& output) {
  const CompileOptions& options = request.options;
  if (!options.use_cache || options.emit == EmitKind::cuda) return std::nullopt;
  std::optional<cache::KernelCache> cache;
  cache.emplace(options.cache_dir.empty() ? cache::KernelCache::default_root() : std::filesystem::path(options.cache_dir));
  if (!cache->enabled()) output.warnings += cache->warning() + "\n";
  return cache;
}

frontend::Origin origin_of(const GeneratedKernel& kernel) {
  return std::holds_alternative<HostCallKernel>(kernel.form) ? frontend::Origin::host_call
                                                              : frontend::Origin::generator;
}

namespace {

// What errors in a signature's text call it: the caller's word for it, else "signature for NAME".
std::string signature_origin(const KernelSignature& signature) {
  return signature.origin.empty() ? "signature for " + signature.function : signature.origin;
}

// The kernels and signatures a request names: the generated kernel alone, or the options'.
void requested_kernels(const Request& request, std::vector<std::string>& kernels,
                       std::vector<KernelSignature>& signatures) {
  if (request.generated) {
    std::string name = kernel_name(*request.generated);
    kernels = {name};
    signatures = {{name, request.generated->signature}};
    return;
  }
  kernels = request.options.kernels;
  signatures = request.options.signatures;
}

Status check_names(frontend::Module& module, const std::vector<std::string>& kernels,
                   const std::vector<KernelSignature>& signatures) {
  for (const std::string& name : kernels) {
    frontend::ModuleFunction* function = module.function(name);
    if (!function || function->decoration.role == FunctionRole::undecorated)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("{}: no kernel named '{}'", module.file().display_name(), name));
  }
  for (const KernelSignature& signature : signatures) {
    frontend::ModuleFunction* function = module.function(signature.function);
    if (!function || function->decoration.role == FunctionRole::undecorated)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("{}: {} has no kernel named '{}'", signature_origin(signature),
                                     module.file().display_name(), signature.function));
    // A signature is compiled only for a kernel: one for a device or @jit function would be
    // dropped without a word, so it is refused.
    if (function->decoration.role == FunctionRole::device)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("{}: '{}' in {} is a device or @jit function, not a kernel; signatures are "
                                     "given to kernels, and a kernel's calls type the functions it calls "
                                     "(run a @jit function with `pykern run FILE {} ARGS...`)",
                                     signature_origin(signature), signature.function,
                                     module.file().display_name(), signature.function));
  }
  return ok_status();
}

// @jit functions typed for a host call's argument types.
Status collect_host_functions(frontend::Module& module, const Request& request,
                              std::vector<SourceFile>& signature_files, std::vector<sema::EntryRequest>& entries,
                              Diagnostics& diagnostics) {
  for (const KernelSignature& wanted : request.host_functions) {
    frontend::ModuleFunction* function = module.function(wanted.function);
    if (!function || function->decoration.role != FunctionRole::device)
      return Error::make(ErrorKind::invalid_argument, fmt::format("{}: no @jit function named '{}'",
                                                                  module.file().display_name(), wanted.function));
    const ast::Function* lowered = module.lowered_function(function->name, diagnostics);
    if (lowered == nullptr) continue;
    signature_files.emplace_back("arguments of " + function->name, wanted.signature);
    auto parsed = sema::parse_signature(signature_files.back(), diagnostics);
    // Eager signatures in the decorator (@jit(float64(int32, int32)), or a list of them) are the
    // only ones Numba compiles: the call's arguments convert to the one its overload
    // resolution picks for them.
    if (!function->decoration.signatures.empty()) {
      SourceRange declared = module.ast()[function->decoration.signatures.front()].range;
      if (!parsed) continue;
      auto chosen = sema::declared_overload(module, *function, parsed->arguments, declared, diagnostics);
      if (chosen) entries.push_back({function->name, *chosen, declared});
      continue;
    }
    if (parsed) entries.push_back({function->name, *parsed, lowered->name_range});
  }
  return ok_status();
}

}  // namespace

Result<std::vector<sema::EntryRequest>> collect_entries(frontend::Module& module, const Request& request,
                                                        std::vector<SourceFile>& signature_files,
                                                        std::vector<std::string>& checked_only,
                                                        Diagnostics& diagnostics) {
  std::vector<std::string> kernels;
  std::vector<KernelSignature> signatures;
  requested_kernels(request, kernels, signatures);
  if (auto known = check_names(module, kernels, signatures); !known.ok()) return known.error();
  // No kernel named means all of them, unless the request is for @jit functions alone.
  bool every_kernel = kernels.empty() && request.host_functions.empty();
  std::set<std::string> wanted(kernels.begin(), kernels.end());
  std::map<std::string, std::vector<const KernelSignature*>> given;
  for (const KernelSignature& signature : signatures) given[signature.function].push_back(&signature);
  signature_files.reserve(signatures.size() + request.host_functions.size());
  std::vector<sema::EntryRequest> entries;
  for (frontend::ModuleFunction* function : module.functions_in_order()) {
    FunctionRole role = function->decoration.role;
    if (role == FunctionRole::undecorated || role == FunctionRole::device) continue;
    if (!every_kernel && !wanted.count(function->name)) continue;
    bool has_signature = !given[function->name].empty() || !function->decoration.signatures.empty();
    if (!has_signature && request.defer_unsigned_kernels) {
      checked_only.push_back(function->name);  // checked after inference: check_deferred_kernels
      continue;
    }
    const ast::Function* lowered = module.lowered_function(function->name, diagnostics);
    if (lowered == nullptr) continue;
    bool any = false;
    for (const KernelSignature* signature : given[function->name]) {
      signature_files.emplace_back(signature_origin(*signature), signature->signature);
      sema::SignatureRanges ranges;
      auto parsed = sema::parse_signature(signature_files.back(), diagnostics, &ranges);
      if (parsed && sema::check_signature_fits(*parsed, ranges, signature_files.back(), module, *function, *lowered,
                                               diagnostics))
        entries.push_back({function->name, *parsed, lowered->name_range});
      any = true;
    }
    if (given[function->name].empty()) {
      for (ast::ExprId expr : function->decoration.signatures) {
        sema::SignatureRanges ranges;
        auto parsed = sema::signature_from_decorator(module, expr, diagnostics, &ranges);
        if (parsed && sema::check_signature_fits(*parsed, ranges, module.file(), module, *function, *lowered,
                                                 diagnostics))
          entries.push_back({function->name, *parsed, module.ast()[expr].range});
        any = true;
      }
    }
    if (!any) checked_only.push_back(function->name);
  }
  if (auto hosted = collect_host_functions(module, request, signature_files, entries, diagnostics); !hosted.ok())
    return hosted.error();
  return entries;
}

sema::NameRoots name_roots(const Request& request, const std::vector<sema::EntryRequest>& entries,
                           const std::vector<std::string>& checked_only) {
  sema::NameRoots roots;
  for (const sema::EntryRequest& entry : entries) roots.compiled.push_back(entry.function);
  std::vector<std::string>& unsigned_kernels = request.defer_unsigned_kernels ? roots.deferred : roots.compiled;
  unsigned_kernels.insert(unsigned_kernels.end(), checked_only.begin(), checked_only.end());
  roots.unreached = !request.generated && request.host_functions.empty() && request.options.kernels.empty();
  return roots;
}

void check_deferred_kernels(frontend::Module& module, const Request& request,
                            const std::vector<std::string>& checked_only, Diagnostics& diagnostics) {
  if (!request.defer_unsigned_kernels) return;
  for (const std::string& name : checked_only) {
    Diagnostics found;
    module.lowered_function(name, found);
    for (Diagnostic d : found.all()) {
      if (d.severity == Severity::error) {
        d.severity = Severity::warning;
        d.message = fmt::format("kernel '{}' cannot be compiled: {}", name, d.message);
        if (d.hint.empty()) d.hint = "Numba reports this when the kernel is first launched; so does pykern";
      }
      diagnostics.add(std::move(d));
    }
  }
}

std::string frontend_key(const Request& request, const std::string& text, const std::string& arch,
                         const std::string& nvrtc_version) {
  const CompileOptions& options = request.options;
  std::vector<std::string> parts = {version(), embed::sources_hash(), embed::runtime_headers_hash(), request.file_name, text, arch,
                                    "nvrtc=" + nvrtc_version, std::to_string(static_cast<int>(options.emit))};
  std::vector<std::string> kernels;
  std::vector<KernelSignature> signatures;
  requested_kernels(request, kernels, signatures);
  for (const std::string& kernel : kernels) parts.push_back("kernel=" + kernel);
  for (const KernelSignature& s : signatures) parts.push_back("sig=" + s.function + "=" + s.signature);
  for (const KernelSignature& s : request.host_functions) parts.push_back("fn=" + s.function + "=" + s.signature);
  if (options.debug) parts.push_back("debug");
  return cache::cache_key(parts);
}

std::string nvrtc_version_for_key(cache::KernelCache& cache) {
  std::string memo_key = cache::cache_key({"nvrtc-memo", jit::nvrtc_search_context()});
  if (auto memo = cache.note_lookup(memo_key))
    if (auto version = jit::nvrtc_version_from_memo(*memo)) return *version;
  auto memo = jit::loaded_nvrtc_memo();
  if (!memo.ok()) {
    auto version = jit::nvrtc_version();  // loaded, but its file cannot be told: no memo
    return version.ok() ? *version : std::string("none");
  }
  cache.note_store(memo_key, *memo);
  return jit::nvrtc_version_from_memo(*memo).value_or(std::string("none"));
}

std::string frontend_key(const Request& request, const std::string& text, const std::string& arch,
                         cache::KernelCache& cache) {
  return frontend_key(request, text, arch, nvrtc_version_for_key(cache));
}

namespace {

void fill_from_cache(const cache::CacheEntry& entry, CompileOutput& output) {
  output.binary = entry.binary;
  output.cuda_source = entry.cuda_source;
  output.cache_hit = true;
  output.frontend_cache_hit = true;
  if (!entry.record.contains("kernels")) return;
  for (const auto& k : entry.record["kernels"]) {
    CompiledKernel kernel{k.value("function", ""), k.value("symbol", ""), k.value("signature", ""), {},
                          k.value("debug", false), k.value("cooperative", false), k.value("prints", false)};
    static const nlohmann::json no_parameters = nlohmann::json::array();
    auto found = k.find("parameters");  // read in place: value() would copy the array
    const nlohmann::json& parameters = found != k.end() && found->is_array() ? *found : no_parameters;
    for (const auto& p : parameters) {
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

}  // namespace

bool load_cached(const Request& request, std::optional<cache::KernelCache>& cache, const std::string& frontend_key,
                 CompileOutput& output) {
  if (!cache || !cache->enabled() || request.options.want_types || request.for_simulator) return false;
  auto entry_key = cache->frontend_lookup(frontend_key);
  if (!entry_key) return false;
  auto entry = cache->load(*entry_key);
  if (!entry) return false;
  fill_from_cache(*entry, output);
  return true;
}

Result<std::vector<std::string>> nvrtc_options(const ir::Program& program) {
  std::optional<std::vector<std::string>> chosen;
  for (int index : program.kernels) {
    const ir::FunctionOptions& o = program.functions[index].options;
    std::vector<std::string> flags;
    if (o.debug) flags.insert(flags.end(), {"-G", "-DPK_DEBUG=1"});
    else if (o.lineinfo) flags.push_back("-lineinfo");
    if (o.fastmath.any()) flags.push_back("--use_fast_math");  // numba-cuda: any flag is fastmath=True
    if (o.max_registers > 0) flags.push_back(fmt::format("-maxrregcount={}", o.max_registers));
    // Numba's opt=N is the optimisation level of the device code generator: ptxas here.
    if (!o.debug && o.opt < 3) flags.push_back(fmt::format("--ptxas-options=-O{}", o.opt));
    if (chosen && *chosen != flags)
      return Error::make(ErrorKind::invalid_argument,
                         "the kernels asked for need different compiler options (debug, fastmath, lineinfo, "
                         "max_registers); compile them separately, naming one kernel at a time");
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

}  // namespace

bool FunctionReturn::has_arrays() const {
  for (int ndim : part_ndims)
    if (ndim >= 0) return true;
  return false;
}

namespace {

bool holds_record(const sema::Type& type) {
  if (type.is(sema::TypeKind::record)) return true;
  for (const sema::Type& element : type.elements)
    if (holds_record(element)) return true;
  return false;
}

// What each @jit function typed for a host call returns (Request::host_functions).
void describe_functions(const ir::Program& program, std::vector<FunctionReturn>& functions) {
  for (int index : program.kernels) {
    const ir::Function& f = program.functions[index];
    if (f.is_kernel) continue;
    FunctionReturn r;
    r.function = f.python_name;
    r.signature = emit::signature_text(f);
    r.type = sema::to_string(f.return_type);
    r.boundscheck = f.options.boundscheck;
    r.fastmath = f.options.fastmath;
    for (int index : f.parameters) {
      r.parameters.push_back(parameter_info(f.locals[index].type, f.locals[index].name));
      r.parameter_types.push_back(sema::to_string(f.locals[index].type));
    }
    r.has_records = holds_record(f.return_type);
    sema::Type value = f.return_type;
    if (value.is(sema::TypeKind::optional)) {
      r.is_optional = true;
      value = value.elements[0];
    }
    std::vector<sema::Type> parts;
    if (value.is(sema::TypeKind::list)) {
      r.is_list = true;
      r.list_of_numbers = value.elements[0].is_numeric();
      parts = {value.elements[0]};
    } else if (value.is(sema::TypeKind::tuple)) {
      r.is_tuple = true;
      parts = value.elements;
    } else if (!value.is(sema::TypeKind::none) && !value.is(sema::TypeKind::void_)) {
      parts = {value};
    }
    for (const sema::Type& part : parts) {
      bool scalar = part.is_numeric() && !part.is(sema::TypeKind::record);
      bool array = part.is(sema::TypeKind::array) && !part.dtype().is(sema::TypeKind::record) && !r.is_list;
      if (!scalar && !array) r.returns_other = true;
      r.parts.push_back(scalar ? dtype_of(part) : array ? dtype_of(part.dtype()) : DType::int_(64));
      r.part_ndims.push_back(array ? part.ndim : -1);
    }
    functions.push_back(std::move(r));
  }
}

void describe_generators(frontend::Module& module, Diagnostics& diagnostics, std::vector<GeneratorFunction>& generators) {
  for (frontend::ModuleFunction* f : module.functions_in_order()) {
    FunctionRole role = f->decoration.role;
    if (role != FunctionRole::vectorize && role != FunctionRole::guvectorize && role != FunctionRole::reduce) continue;
    GeneratorFunction g;
    g.name = f->name;
    g.kind = role == FunctionRole::vectorize ? "vectorize" : role == FunctionRole::guvectorize ? "guvectorize" : "reduce";
    g.layout = f->decoration.gufunc_layout;
    g.target = f->decoration.target;
    g.identity = f->decoration.ufunc_identity;
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
    generators.push_back(std::move(g));
  }
}

// Every kernel and @jit function of the file, with its parameter names.
void describe_contents(frontend::Module& module, Diagnostics& diagnostics, ModuleContents& contents) {
  for (frontend::ModuleFunction* f : module.functions_in_order()) {
    FunctionRole role = f->decoration.role;
    if (role != FunctionRole::device && role != FunctionRole::kernel) continue;
    if (f->origin != frontend::Origin::user) continue;
    NamedFunction named{f->name, {}, f->decoration.device_only};
    if (const ast::Function* lowered = module.lowered_function(f->name, diagnostics))
      for (const ast::Parameter& p : lowered->parameters) named.parameters.push_back(p.name);
    (role == FunctionRole::device ? contents.host_functions : contents.kernels).push_back(std::move(named));
  }
  describe_generators(module, diagnostics, contents.generators);
}

}  // namespace

void describe_translation(frontend::Module& module, const ir::Program& program, const emit::EmittedSource& emitted,
                          Diagnostics& diagnostics, Translation& translation) {
  describe_kernels(program, emitted, translation.output);
  describe_contents(module, diagnostics, translation.contents);
  describe_functions(program, translation.functions);
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
