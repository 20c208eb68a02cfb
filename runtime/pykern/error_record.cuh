// pykern runtime: the first failure of a GPU launch, as the device leaves it for the host.
// Plain C++ (no device keywords): the launcher includes it too, so both sides agree on the
// layout. A debug kernel's failing thread fills it and exits (as Numba's raising thread
// returns); the host reads it after the launch and reports the failure in the simulator's words.
#ifndef PYKERN_ERROR_RECORD_CUH
#define PYKERN_ERROR_RECORD_CUH

namespace pk {

// The file name holds a whole Linux path (PATH_MAX, 4096 with its NUL): #line carries the
// kernel file's absolute path, and the report must read as the simulator's, which has it whole.
// One record per debug module (about 4.4 KB of __device__ memory), cleared and read once per launch.
constexpr int error_record_file_bytes = 4096;

struct ErrorRecord {
  int claimed;        // 0 until a thread claims the record (atomicCAS), then 1
  int line;           // the Python line
  int tid[3];         // threadIdx of the failing thread
  int ctaid[3];       // blockIdx of the failing thread
  int axis;           // IndexError: the axis
  int is_index_error; // 1: an IndexError with index/axis/size; 0: kind and message
  long long index;    // IndexError: the index
  long long size;     // IndexError: the axis' length
  char file[error_record_file_bytes];  // the Python file, as #line names it
  char kind[32];      // "AssertionError", "ZeroDivisionError", "Exception"
  char message[128];  // the assert's or raise's message
};

// The symbol a module's record has (extern "C", so the driver finds it by this name).
#define PK_ERROR_RECORD_SYMBOL "pk_error_record"

}  // namespace pk
#endif  // PYKERN_ERROR_RECORD_CUH
