#include "program.hpp"

namespace sprig::fuzz {

std::string type_name(Type t) {
  static const char* scalars[] = {"Bool", "Int", "UInt", "Float", "Long", "ULong"};
  static const char* vectors[] = {"BVec", "IVec", "UVec", "Vec"};
  if (t.lanes == 1) return scalars[int(t.scalar)];
  return vectors[int(t.scalar)] + std::to_string(t.lanes);
}

std::string host_type_name(Type t) {
  static const char* scalars[] = {"bool", "std::int32_t", "std::uint32_t", "float", "std::int64_t", "std::uint64_t"};
  static const char* vectors[] = {"bvec", "ivec", "uvec", "vec"};
  if (t.lanes == 1) return scalars[int(t.scalar)];
  return vectors[int(t.scalar)] + std::to_string(t.lanes);
}

Type struct_field_type(std::uint32_t field) {
  if (field == 0) return {Scalar::U32, 1};
  if (field == 1) return {Scalar::I32, 1};
  return {Scalar::U32, 2};
}

std::uint32_t invocations(const Program& p) { return p.workgroup_size * p.workgroups; }

}  // namespace sprig::fuzz
