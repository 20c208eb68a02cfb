// Values beyond scalars and arrays (a str, list, dict, tuple) crossing into and out of a host
// call: their Numba types, and the byte stream the runtime reads and writes them as
// (runtime/pykern/host_values.cuh describes it).
#pragma once
#include <string>
#include <vector>

#include "pykern/value.h"

namespace pykern::detail {

// A value's type as Numba's typeof gives it: in signature syntax, which the translator reads
// ("ListType(int64)", "DictType(int64, unicode_type)"), and as the translator names the type
// ("list(int64)", "DictType[int64,unicode_type]<iv=None>"). An error for a value no host
// function can take: None, an empty list or dict without item types, items of several types.
struct ValueType {
  std::string signature, name;
};
Result<ValueType> value_type(const Value& value);

// The bytes the runtime builds an argument from (value_type(value) must have succeeded). Arrays
// in it are views of the caller's memory: `value` must outlive the call.
std::vector<unsigned char> encode_value(const Value& value);

// A view of a caller's memory a call handed back (returned, or kept in a list or dict argument):
// the caller's own array where it is one, a view sharing the storage of the caller's array it
// lies in, else (memory the call borrowed elsewhere, a module constant's) a copy.
Array caller_view(void* data, const DType& dtype, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& strides, const std::vector<Array>& caller);

// What the runtime wrote for a returned value.
Result<Value> decode_value(const std::string& bytes);

// What the runtime wrote back for a list or dict argument of type `type` (a ValueType's
// signature) that held `before`: arrays the function kept of the caller's (views of `before`'s
// arrays) stay views of them; an empty list or dict keeps its item types, so the Value can be
// passed again.
Result<Value> decode_written_back(const std::string& bytes, const Value& before, const std::string& type);

}  // namespace pykern::detail
