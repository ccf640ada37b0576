// Program -> sprig kernel: walks the program tree at trace time and makes the DSL calls
// that a hand-written kernel would make (the printer writes exactly these calls).
#include "fuzz_kernel.hpp"

#include <optional>
#include <variant>

#include "dsl_calls.hpp"

namespace sprig::fuzz {

namespace {

using namespace calls;

// A kernel's or a callable's variables and the loop indices in scope.
struct Scope {
  std::vector<VarPlace> variables;
  std::optional<PlaceOf<std::array<std::uint32_t, array_size>>> array;
  std::optional<PlaceOf<FuzzStruct>> fuzz_struct;
  std::vector<std::pair<std::uint32_t, UInt>> loop_indices;
  bool in_callable = false;
};

class Tracer;
UInt trace_callable(Tracer& tracer, std::uint32_t index, const UInt& a, const UInt& b);

auto make_callable(Tracer& tracer, std::uint32_t index) {
  return callable("fuzz_fn" + std::to_string(index),
                  [&tracer, index](UInt a, UInt b) -> UInt { return trace_callable(tracer, index, a, b); });
}
using FuzzCallable = decltype(make_callable(std::declval<Tracer&>(), 0));

struct Buffers {
  ReadBuffer<std::uint32_t> in32;
  ReadBuffer<std::uint64_t> in64;
  Buffer<std::uint32_t> out32;
  Buffer<std::uint64_t> out64;
  Buffer<std::uint32_t> outf;
  Buffer<float> outa;
  Buffer<std::uint32_t> atom32;
  Buffer<std::uint64_t> atom64;
  UInt param;
};

class Tracer {
 public:
  Tracer(const Program& program, const Buffers& buffers) : program_(program), buffers_(buffers) {}

  void trace_kernel() {
    slot_base_ = global_id().x() * slots_per_invocation;
    for (std::uint32_t i = 0; i < program_.functions.size(); ++i) functions_.push_back(make_callable(*this, i));
    if (program_.uses_shared) tile_.emplace(shared_array<std::uint32_t>(program_.workgroup_size, "tile"));
    Scope scope;
    scope.array.emplace(Var<std::array<std::uint32_t, array_size>>());
    scope.fuzz_struct.emplace(Var<FuzzStruct>());
    for (std::size_t i = 0; i < program_.variables.size(); ++i)
      scope.variables.push_back(declare(program_.variables[i], eval(program_.initial_values[i], scope)));
    block(program_.body, scope);
  }

  UInt trace_function(std::uint32_t index, const UInt& a, const UInt& b) {
    const Function& f = program_.functions.at(index);
    Scope scope;
    scope.in_callable = true;
    for (std::size_t i = 0; i < f.variables.size(); ++i) {
      if (i < 2)
        scope.variables.push_back(PlaceOf<std::uint32_t>(Var<UInt>(i == 0 ? a : b)));
      else
        scope.variables.push_back(declare(f.variables[i], std::nullopt));
    }
    block(f.body, scope);
    return as<std::uint32_t>(eval(f.result, scope));
  }

 private:
  static VarPlace declare(Type t, const std::optional<Value>& initial) {
    return with_host_type(t, [&]<class T>(std::type_identity<T>) -> VarPlace {
      if (initial) return PlaceOf<T>(Var<T>(as<T>(*initial)));
      return PlaceOf<T>(Var<T>());
    });
  }

  UInt index(const Expr& e, Scope& scope, std::uint32_t modulus) { return as<std::uint32_t>(eval(e, scope)) % modulus; }

  Value eval(const Expr& e, Scope& scope) {
    switch (e.kind) {
      case ExprKind::Constant:
        return with_host_type(
            e.type, [&]<class T>(std::type_identity<T>) -> Value { return sprig::Expr<T>(host_value<T>(e.bits)); });
      case ExprKind::Variable:
        return std::visit([](const auto& place) -> Value { return place.load(); }, scope.variables.at(e.index));
      case ExprKind::ArrayElement: return (*scope.array)[index(e.args.at(0), scope, array_size)].load();
      case ExprKind::StructField:
        switch (e.index) {
          case 0: return (*scope.fuzz_struct)[&FuzzStruct::a].load();
          case 1: return (*scope.fuzz_struct)[&FuzzStruct::b].load();
          default: return (*scope.fuzz_struct)[&FuzzStruct::c].load();
        }
      case ExprKind::LoopIndex:
        for (auto& [id, value] : scope.loop_indices)
          if (id == e.index) return value;
        ill_typed("loop index");
      case ExprKind::Input:
        if (e.index == 0) return buffers_.in32[index(e.args.at(0), scope, in32_size)].load();
        return buffers_.in64[index(e.args.at(0), scope, in64_size)].load();
      case ExprKind::OutputRead: {
        UInt slot = *slot_base_ + index(e.args.at(0), scope, slots_per_invocation);
        if (e.index == 0) return buffers_.out32[slot].load();
        return buffers_.out64[slot].load();
      }
      case ExprKind::Builtin:
        switch (Builtin(e.index)) {
          case Builtin::GlobalId: return global_id().x();
          case Builtin::LocalIndex: return local_index();
          case Builtin::WorkgroupId: return workgroup_id().x();
          case Builtin::SubgroupInvocationId: return subgroup_invocation_id();
        }
        ill_typed("builtin");
      case ExprKind::Param: return buffers_.param;
      case ExprKind::Unary: return std::visit([&](const auto& a) { return unary(e.op, a); }, eval(e.args.at(0), scope));
      case ExprKind::Binary: {
        Value b = eval(e.args.at(1), scope);
        bool broadcast = e.args.at(1).type != e.args.at(0).type;
        return std::visit(
            [&]<class T>(const sprig::Expr<T>& a) {
              if (!broadcast) return binary<T>(e.op, a, as<T>(b));
              return std::visit([&](const auto& scalar) { return broadcast_binary(e.op, a, scalar); }, b);
            },
            eval(e.args.at(0), scope));
      }
      case ExprKind::Select: {
        Value c = eval(e.args.at(0), scope), b = eval(e.args.at(2), scope);
        return std::visit(
            [&]<class T>(const sprig::Expr<T>& a) -> Value {
              if constexpr (VectorValue<T>) {
                if (auto* lanes = std::get_if<sprig::Expr<with_component_t<T, bool>>>(&c))
                  return select(*lanes, a, as<T>(b));
              }
              return select(as<bool>(c), a, as<T>(b));
            },
            eval(e.args.at(1), scope));
      }
      case ExprKind::BitfieldExtract: {
        UInt offset = as<std::uint32_t>(eval(e.args.at(1), scope)),
             count = as<std::uint32_t>(eval(e.args.at(2), scope));
        return std::visit(
            [&]<class T>(const sprig::Expr<T>& v) -> Value {
              if constexpr (IntegerLike<T>) return bitfield_extract(v, offset, count);
              ill_typed("bitfield_extract");
            },
            eval(e.args.at(0), scope));
      }
      case ExprKind::BitfieldInsert: {
        Value insert = eval(e.args.at(1), scope);
        UInt offset = as<std::uint32_t>(eval(e.args.at(2), scope)),
             count = as<std::uint32_t>(eval(e.args.at(3), scope));
        return std::visit(
            [&]<class T>(const sprig::Expr<T>& base) -> Value {
              if constexpr (IntegerLike<T>) return bitfield_insert(base, as<T>(insert), offset, count);
              ill_typed("bitfield_insert");
            },
            eval(e.args.at(0), scope));
      }
      case ExprKind::Cast:
      case ExprKind::Bitcast: {
        Value from = eval(e.args.at(0), scope);
        bool bits = e.kind == ExprKind::Bitcast;
        return with_host_type(e.type, [&]<class To>(std::type_identity<To>) -> Value {
          return std::visit(
              [&]<class T>(const sprig::Expr<T>& v) -> Value {
                if constexpr (components_of<T>() == components_of<To>()) {
                  if (!bits) return cast<To>(v);
                }
                if constexpr (sizeof(component_t<To>) * components_of<To>() ==
                                  sizeof(component_t<T>) * components_of<T>() &&
                              !std::is_same_v<component_t<To>, bool> && !std::is_same_v<component_t<T>, bool>) {
                  if (bits) return bitcast<To>(v);
                }
                ill_typed("conversion");
              },
              from);
        });
      }
      case ExprKind::UnitFloat:
        return bitcast<float>((as<std::uint32_t>(eval(e.args.at(0), scope)) & 0x007FFFFFu) | 0x3F800000u);
      case ExprKind::Extract:
        return std::visit(
            [&]<class T>(const sprig::Expr<T>& v) -> Value {
              if constexpr (VectorValue<T>) return v[int(e.index)];
              ill_typed("extract");
            },
            eval(e.args.at(0), scope));
      case ExprKind::Splat: {
        Value scalar = eval(e.args.at(0), scope);
        return with_host_type(e.type, [&]<class V>(std::type_identity<V>) -> Value {
          if constexpr (VectorValue<V>) {
            using C = component_t<V>;
            if constexpr (std::is_same_v<C, bool>) {
              V all_true{};
              all_true.x = all_true.y = true;
              if constexpr (components_of<V>() >= 3) all_true.z = true;
              if constexpr (components_of<V>() >= 4) all_true.w = true;
              return select(as<bool>(scalar), sprig::Expr<V>(all_true), sprig::Expr<V>(V{}));
            } else {
              return sprig::Expr<V>(V{}) + as<C>(scalar);
            }
          }
          ill_typed("splat");
        });
      }
      case ExprKind::Construct: {
        std::vector<Value> parts;
        for (const Expr& a : e.args) parts.push_back(eval(a, scope));
        std::vector<std::uint8_t> shape;
        for (const Expr& a : e.args) shape.push_back(a.type.lanes);
        return with_host_type(e.type, [&]<class V>(std::type_identity<V>) -> Value {
          if constexpr (VectorValue<V>) return construct<V>(shape, parts);
          ill_typed("constructor");
        });
      }
      case ExprKind::Call:
        return functions_.at(e.index)(as<std::uint32_t>(eval(e.args.at(0), scope)),
                                      as<std::uint32_t>(eval(e.args.at(1), scope)));
    }
    ill_typed("expression");
  }

  void block(const std::vector<Stmt>& statements, Scope& scope) {
    for (const Stmt& s : statements) statement(s, scope);
  }

  PlaceOf<std::uint32_t> counter(const Stmt& s, Scope& scope) {
    return std::get<PlaceOf<std::uint32_t>>(scope.variables.at(s.target));
  }

  void statement(const Stmt& s, Scope& scope) {
    switch (s.kind) {
      case StmtKind::Assign: {
        Value v = eval(s.exprs.at(0), scope);
        std::visit([&]<class T>(const PlaceOf<T>& place) { place = as<T>(v); }, scope.variables.at(s.target));
        return;
      }
      case StmtKind::AssignElement: {
        UInt i = index(s.exprs.at(0), scope, array_size);
        (*scope.array)[i] = as<std::uint32_t>(eval(s.exprs.at(1), scope));
        return;
      }
      case StmtKind::AssignField: {
        Value v = eval(s.exprs.at(0), scope);
        if (s.target == 0)
          (*scope.fuzz_struct)[&FuzzStruct::a] = as<std::uint32_t>(v);
        else if (s.target == 1)
          (*scope.fuzz_struct)[&FuzzStruct::b] = as<std::int32_t>(v);
        else
          (*scope.fuzz_struct)[&FuzzStruct::c] = as<uvec2>(v);
        return;
      }
      case StmtKind::Store: {
        UInt slot = *slot_base_ + index(s.exprs.at(0), scope, slots_per_invocation);
        Value v = eval(s.exprs.at(1), scope);
        switch (OutputBuffer(s.target)) {
          case OutputBuffer::Out32: buffers_.out32[slot] = as<std::uint32_t>(v); return;
          case OutputBuffer::Out64: buffers_.out64[slot] = as<std::uint64_t>(v); return;
          case OutputBuffer::OutFloatBits: buffers_.outf[slot] = bitcast<std::uint32_t>(as<float>(v)); return;
          case OutputBuffer::OutApproxFloat: buffers_.outa[slot] = as<float>(v); return;
        }
        return;
      }
      case StmtKind::If: {
        IfChain chain = if_(as<bool>(eval(s.exprs.at(0), scope)), [&] { block(s.body, scope); });
        if (!s.else_body.empty()) chain.else_([&] { block(s.else_body, scope); });
        return;
      }
      case StmtKind::For: {
        UInt begin = as<std::uint32_t>(eval(s.exprs.at(0), scope)), end = as<std::uint32_t>(eval(s.exprs.at(1), scope));
        for_(begin, end, [&](UInt i) {
          scope.loop_indices.emplace_back(s.id, i);
          block(s.body, scope);
          scope.loop_indices.pop_back();
        });
        return;
      }
      case StmtKind::While: {
        PlaceOf<std::uint32_t> c = counter(s, scope);
        c = 0u;
        while_([&] { return c < s.bound && as<bool>(eval(s.exprs.at(0), scope)); },
               [&] {
                 c += 1u;
                 block(s.body, scope);
               });
        return;
      }
      case StmtKind::Loop: {
        PlaceOf<std::uint32_t> c = counter(s, scope);
        c = 0u;
        loop_([&] {
          c += 1u;
          if_(c > s.bound, [&] { break_(); });
          block(s.body, scope);
        });
        return;
      }
      case StmtKind::Break: break_(); return;
      case StmtKind::Continue: continue_(); return;
      case StmtKind::Return:
        if (scope.in_callable)
          return_(as<std::uint32_t>(eval(s.exprs.at(0), scope)));
        else
          return_();
        return;
      case StmtKind::Atomic: atomic(s, scope); return;
      case StmtKind::SharedRound: {
        UInt l = local_index();
        (*tile_)[l] = as<std::uint32_t>(eval(s.exprs.at(0), scope));
        barrier();
        std::get<PlaceOf<std::uint32_t>>(scope.variables.at(s.target)) =
            (*tile_)[(l + s.bound) % program_.workgroup_size].load();
        barrier();
        return;
      }
      case StmtKind::Subgroup: subgroup(s, scope); return;
    }
  }

  void atomic(const Stmt& s, Scope& scope) {
    std::uint32_t kind = std::uint32_t(s.op) - std::uint32_t(Op::AtomicAdd);
    UInt i = kind * atomic_counters + index(s.exprs.at(0), scope, atomic_counters);
    Value v = eval(s.exprs.at(1), scope);
    auto apply = [&]<class T>(const PlaceOf<T>& place, const sprig::Expr<T>& value) {
      switch (s.op) {
        case Op::AtomicAdd: atomic_add(place, value); return;
        case Op::AtomicSub: atomic_sub(place, value); return;
        case Op::AtomicMin: atomic_min(place, value); return;
        case Op::AtomicMax: atomic_max(place, value); return;
        case Op::AtomicAnd: atomic_and(place, value); return;
        case Op::AtomicOr: atomic_or(place, value); return;
        case Op::AtomicXor: atomic_xor(place, value); return;
        default: ill_typed("atomic");
      }
    };
    if (s.target == 0)
      apply(PlaceOf<std::uint32_t>(buffers_.atom32[i]), as<std::uint32_t>(v));
    else
      apply(PlaceOf<std::uint64_t>(buffers_.atom64[i]), as<std::uint64_t>(v));
  }

  void subgroup(const Stmt& s, Scope& scope) {
    VarPlace& target = scope.variables.at(s.target);
    auto set_bool = [&](const Bool& b) { std::get<PlaceOf<bool>>(target) = b; };
    auto set_uint = [&](const UInt& u) { std::get<PlaceOf<std::uint32_t>>(target) = u; };
    switch (s.op) {
      case Op::SubgroupElect: set_bool(subgroup_elect()); return;
      case Op::SubgroupAll: set_bool(subgroup_all(as<bool>(eval(s.exprs.at(0), scope)))); return;
      case Op::SubgroupAny: set_bool(subgroup_any(as<bool>(eval(s.exprs.at(0), scope)))); return;
      case Op::SubgroupBallotCount:
        set_uint(ballot_bit_count(subgroup_ballot(as<bool>(eval(s.exprs.at(0), scope)))));
        return;
      case Op::SubgroupBallotInclusiveCount:
        set_uint(ballot_inclusive_bit_count(subgroup_ballot(as<bool>(eval(s.exprs.at(0), scope)))));
        return;
      default: break;
    }
    Value x = eval(s.exprs.at(0), scope);
    if (s.op == Op::SubgroupAllEqual) {
      set_bool(std::visit([](const auto& v) { return subgroup_all_equal(v); }, x));
      return;
    }
    std::visit(
        [&]<class T>(const sprig::Expr<T>& v) {
          auto& place = std::get<PlaceOf<T>>(target);
          if constexpr (IntegerLike<T>) {
            switch (s.op) {
              case Op::SubgroupAdd: place = subgroup_add(v); return;
              case Op::SubgroupMul: place = subgroup_mul(v); return;
              case Op::SubgroupMin: place = subgroup_min(v); return;
              case Op::SubgroupMax: place = subgroup_max(v); return;
              case Op::SubgroupAnd: place = subgroup_and(v); return;
              case Op::SubgroupOr: place = subgroup_or(v); return;
              case Op::SubgroupXor: place = subgroup_xor(v); return;
              case Op::SubgroupInclusiveAdd: place = subgroup_inclusive_add(v); return;
              case Op::SubgroupExclusiveAdd: place = subgroup_exclusive_add(v); return;
              case Op::SubgroupInclusiveXor: place = subgroup_inclusive_xor(v); return;
              case Op::SubgroupExclusiveMax: place = subgroup_exclusive_max(v); return;
              default: break;
            }
          }
          switch (s.op) {
            case Op::SubgroupBroadcastFirst: place = subgroup_broadcast_first(v); return;
            case Op::SubgroupBroadcastZero: place = subgroup_broadcast(v, 0u); return;
            case Op::SubgroupShuffleXor: place = subgroup_shuffle_xor(v, s.bound); return;
            default: ill_typed("subgroup operation");
          }
        },
        x);
  }

  const Program& program_;
  Buffers buffers_;
  std::optional<UInt> slot_base_;
  std::optional<SharedArray<std::uint32_t>> tile_;
  std::vector<FuzzCallable> functions_;
};

UInt trace_callable(Tracer& tracer, std::uint32_t index, const UInt& a, const UInt& b) {
  return tracer.trace_function(index, a, b);
}

}  // namespace

FuzzKernel trace_program(const Program& program, std::uint32_t subgroup_size) {
  KernelOptions options = workgroup(program.workgroup_size);
  options.subgroup_size = subgroup_size;
  return kernel(
      "fuzz",
      [&](ReadBuffer<std::uint32_t> in32, ReadBuffer<std::uint64_t> in64, Buffer<std::uint32_t> out32,
          Buffer<std::uint64_t> out64, Buffer<std::uint32_t> outf, Buffer<float> outa, Buffer<std::uint32_t> atom32,
          Buffer<std::uint64_t> atom64, UInt param) {
        Tracer tracer(program, Buffers{in32, in64, out32, out64, outf, outa, atom32, atom64, param});
        tracer.trace_kernel();
      },
      options);
}

}  // namespace sprig::fuzz
