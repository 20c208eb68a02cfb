// Record (structured dtype) types as C++ structs with NumPy's layout. Sema admits only records
// whose fields sit where a C struct would put them (align=True layouts), so a struct of the
// fields with the gaps spelled out as byte arrays has exactly NumPy's offsets and size; the
// static_assert says so to the compiler too.
#include <set>

#include <fmt/format.h>
#include <xxhash.h>

#include "emit/emit_cuda.h"
#include "emit/writer.h"

namespace pykern::emit {

using sema::Type;
using sema::TypeKind;

std::string record_struct_name(const Type& record) {
  std::string key = sema::to_string(record);
  return fmt::format("pk_record_{:016x}", XXH3_64bits(key.data(), key.size()));
}

namespace {

class RecordCollector {
 public:
  explicit RecordCollector(Writer& out) : out_(out) {}

  // Defines `type`'s records, nested ones first, each once.
  void visit(const Type& type) {
    for (const Type& element : type.elements) visit(element);
    if (!type.is(TypeKind::record) || !type.record_name.empty()) return;
    std::string name = record_struct_name(type);
    if (!defined_.insert(name).second) return;
    define(type, name);
  }

 private:
  void define(const Type& record, const std::string& name) {
    // User text (field names) reaches the comment as a C string literal, as all user text does.
    out_.line(fmt::format("struct {} {{  // {}", name, c_string_literal(sema::to_string(record))));
    out_.indent();
    int64_t at = 0;
    for (size_t i = 0; i < record.elements.size(); ++i) {
      if (record.offsets[i] > at)
        out_.line(fmt::format("unsigned char pk_pad_{}[{}];", at, record.offsets[i] - at));
      int64_t count = 1;
      for (int64_t extent : record.field_shapes[i]) count *= extent;
      std::string extent = record.field_shapes[i].empty() ? "" : fmt::format("[{}]", count);
      out_.line(fmt::format("{} {}{};", cxx_type(record.elements[i]), mangle_local(record.field_names[i]), extent));
      at = record.offsets[i] + record.elements[i].itemsize() * count;
    }
    if (record.record_size > at) out_.line(fmt::format("unsigned char pk_pad_{}[{}];", at, record.record_size - at));
    out_.dedent();
    out_.line("};");
    out_.line(fmt::format("static_assert(sizeof({}) == {}, \"NumPy's record layout\");", name, record.record_size));
    out_.blank();
  }

  Writer& out_;
  std::set<std::string> defined_;
};

}  // namespace

void emit_record_structs(const ir::Program& program, Writer& out) {
  RecordCollector collector(out);
  for (const ir::Function& f : program.functions) {
    for (const ir::Local& l : f.locals) collector.visit(l.type);
    for (const Type& t : f.argument_types) collector.visit(t);
    collector.visit(f.return_type);
    for (size_t i = 0; i < f.exprs.size(); ++i) collector.visit(f.exprs[ir::ExprId(static_cast<uint32_t>(i))].type);
  }
}

}  // namespace pykern::emit
