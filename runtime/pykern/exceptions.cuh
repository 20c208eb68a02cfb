// pykern runtime: the Python exceptions of host calls, as try statements catch them
// (emit/try_blocks.h). The engine's report_failure and report_index_error throw an object of
// a class derived from pk::PythonException (sim/engine.cpp); a handler catches it by this base,
// and a finally block keeps a copy while it runs, to raise it again after. What stops a call
// without being a Python exception (a timeout, a cancel, another thread's failure) is not one.
#ifndef PYKERN_EXCEPTIONS_CUH
#define PYKERN_EXCEPTIONS_CUH
#include "pykern/base.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

struct PythonException {
  virtual ~PythonException() = default;
  virtual PythonException* copy() const = 0;   // a copy on the heap, which its owner deletes
  [[noreturn]] virtual void raise() const = 0;  // throws a copy of itself
};

// The exception a finally block holds while it runs.
class PendingException {
 public:
  PendingException() = default;
  PendingException(const PendingException&) = delete;
  PendingException& operator=(const PendingException&) = delete;
  ~PendingException() { delete held_; }

  void keep(const PythonException& e) {
    delete held_;
    held_ = e.copy();
  }
  [[noreturn]] void raise() {
    struct Owner {
      PythonException* e;
      ~Owner() { delete e; }
    } owner{held_};
    held_ = nullptr;
    owner.e->raise();
  }

 private:
  PythonException* held_ = nullptr;
};

}  // namespace pk
#endif
#endif  // PYKERN_EXCEPTIONS_CUH
