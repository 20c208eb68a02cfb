#include "emit/try_blocks.h"

#include <fmt/format.h>

namespace pykern::emit {

bool FinallyRoutes::passes_finally(Exit exit, int loop_id) const {
  for (auto level = levels_.rbegin(); level != levels_.rend(); ++level) {
    if (level->is_finally) return true;
    if (exit != Exit::return_ && level->id == loop_id) return false;  // the loop it leaves comes first
  }
  return false;
}

std::string FinallyRoutes::jump(Exit exit, int loop_id, const std::string& plain) {
  for (auto level = levels_.rbegin(); level != levels_.rend(); ++level) {
    if (!level->is_finally) continue;
    size_t index = 0;
    while (index < level->routes.size() &&
           !(level->routes[index].exit == exit && level->routes[index].loop_id == loop_id &&
             level->routes[index].plain == plain))
      ++index;
    if (index == level->routes.size()) level->routes.push_back({exit, loop_id, plain});
    return fmt::format("{{ pk_exit_{0} = {1}; goto pk_finally_{0}; }}", level->id, index + 2);
  }
  return plain;
}

std::vector<std::string> FinallyRoutes::leave_finally() {
  Level level = std::move(levels_.back());
  levels_.pop_back();
  std::vector<std::string> lines;
  for (size_t i = 0; i < level.routes.size(); ++i) {
    const Route& route = level.routes[i];
    std::string resume = passes_finally(route.exit, route.loop_id) ? jump(route.exit, route.loop_id, route.plain)
                                                                    : route.plain;
    lines.push_back(fmt::format("if (pk_exit_{} == {}) {}", level.id, i + 2, resume));
  }
  return lines;
}

std::vector<std::string> try_declarations(const ir::Function& f, const std::string& return_type) {
  bool has_finally = false, returns_value = false;
  for (size_t i = 0; i < f.stmts.size(); ++i) {
    const ir::Stmt& s = f.stmts[ir::StmtId(static_cast<uint32_t>(i))];
    has_finally = has_finally || s.kind == ir::StmtKind::try_finally;
    returns_value = returns_value || (s.kind == ir::StmtKind::return_ && s.value.valid());
  }
  if (!has_finally || !returns_value) return {};
  return {fmt::format("{} pk_result{{}};", return_type)};
}

bool has_try_statements(const ir::Program& program) {
  for (const ir::Function& f : program.functions)
    for (size_t i = 0; i < f.stmts.size(); ++i) {
      ir::StmtKind kind = f.stmts[ir::StmtId(static_cast<uint32_t>(i))].kind;
      if (kind == ir::StmtKind::try_except || kind == ir::StmtKind::try_finally) return true;
    }
  return false;
}

}  // namespace pykern::emit
