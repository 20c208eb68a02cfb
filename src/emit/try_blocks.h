// The C++ of try statements (ir::StmtKind::try_except, try_else, try_finally), which only host
// calls hold (sema/check_try.cpp). A Python exception unwinds a host call as a C++ exception
// derived from pk::PythonException (runtime/pykern/exceptions.cuh, thrown by sim/engine.cpp),
// so a handler is a catch of that class:
//
//   try { B } catch (const ::pk::PythonException&) { H; goto pk_try_end_K; }  { E }  pk_try_end_K:;
//
// A finally block is written once. Leaving the body by an exception, a return, a break or a
// continue goes through it: the exit is noted in pk_exit_K (an exception kept in pk_pending_K,
// a return's value in pk_result), control jumps to the block, and after it the exit resumes,
// through the next finally block out if there is one:
//
//   { int pk_exit_K = 0; ::pk::PendingException pk_pending_K;
//     try { B (return v → { pk_result = v; pk_exit_K = 2; goto pk_finally_K; }) }
//     catch (const ::pk::PythonException& e) { pk_pending_K.keep(e); pk_exit_K = 1; }
//     pk_finally_K:; F
//     if (pk_exit_K == 1) pk_pending_K.raise();
//     if (pk_exit_K == 2) return pk_result; }
#pragma once
#include <string>
#include <vector>

#include "sema/ir.h"

namespace pykern::emit {

enum class Exit { return_, break_, continue_ };

// The loops and finally blocks around the statement being written, and the exits each finally
// block's body took.
class FinallyRoutes {
 public:
  void enter_loop(int loop_id) { levels_.push_back({false, loop_id, {}}); }
  void leave_loop() { levels_.pop_back(); }
  void enter_finally(int id) { levels_.push_back({true, id, {}}); }
  // Leaves the innermost finally block's body: the lines that resume its exits after the block.
  std::vector<std::string> leave_finally();

  // Whether `exit` (of loop `loop_id` for a break or continue) passes a finally block.
  bool passes_finally(Exit exit, int loop_id) const;
  // The jump into the innermost finally block for an exit whose own C++ is `plain`, which then
  // runs after the block.
  std::string jump(Exit exit, int loop_id, const std::string& plain);

 private:
  struct Route {
    Exit exit;
    int loop_id;
    std::string plain;
  };
  struct Level {
    bool is_finally;
    int id;
    std::vector<Route> routes;  // pk_exit_K == 2 + index
  };
  std::vector<Level> levels_;
};

// The C++ declarations of the variables a function's try statements use: pk_result, where a
// return inside a try block with a finally block keeps its value.
std::vector<std::string> try_declarations(const ir::Function& f, const std::string& return_type);

// Whether a program catches exceptions: its library links the C++ runtime then.
bool has_try_statements(const ir::Program& program);

}  // namespace pykern::emit
