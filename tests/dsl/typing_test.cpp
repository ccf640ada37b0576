// The typing rules of the DSL, checked at compile time: what must not compile does not.
#include <catch2/catch.hpp>

#include <type_traits>

#include "sprig/dsl.hpp"

using namespace sprig;

namespace {

template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
template <class A, class B>
concept Assignable = requires(A a, B b) { a = b; };
template <class A>
concept Readable = requires(A a) { Expr<float>(a); };
template <class Buf, class I>
concept Indexable = requires(Buf b, I i) { b[i]; };
template <class A, class B>
concept Shiftable = requires(A a, B b) { a << b; };

using FloatPlace = Place<float, Access::ReadWrite>;

}  // namespace

TEST_CASE("mixed-type arithmetic does not compile") {
  STATIC_REQUIRE(Addable<Int, Int>);
  STATIC_REQUIRE(!Addable<Int, Float>);
  STATIC_REQUIRE(!Addable<Int, UInt>);
  STATIC_REQUIRE(!Addable<UInt, Long>);
  STATIC_REQUIRE(!Addable<Vec4, IVec4>);
}

TEST_CASE("literals adopt the other operand's type, without narrowing to integers") {
  STATIC_REQUIRE(Addable<UInt, int>);
  STATIC_REQUIRE(Addable<int, UInt>);
  STATIC_REQUIRE(Addable<Float, double>);
  STATIC_REQUIRE(Addable<Float, int>);
  STATIC_REQUIRE(!Addable<Int, double>);
  STATIC_REQUIRE(!Addable<UInt, float>);
  STATIC_REQUIRE(!Addable<Bool, int>);
}

TEST_CASE("vectors take a scalar of their component type") {
  STATIC_REQUIRE(Addable<Vec4, Float>);
  STATIC_REQUIRE(Addable<Float, Vec4>);
  STATIC_REQUIRE(!Addable<Vec4, Int>);
}

TEST_CASE("bit operations exist only on integers") {
  STATIC_REQUIRE(Shiftable<UInt, UInt>);
  STATIC_REQUIRE(!Shiftable<Float, Float>);
  STATIC_REQUIRE(!Shiftable<UInt, Int>);
}

TEST_CASE("read-only buffers cannot be written and write-only buffers cannot be read") {
  using ReadPlace = Place<float, Access::Read>;
  using WritePlace = Place<float, Access::Write>;
  STATIC_REQUIRE(!Assignable<ReadPlace, Float>);
  STATIC_REQUIRE(Assignable<WritePlace, Float>);
  STATIC_REQUIRE(Assignable<FloatPlace, Float>);
  STATIC_REQUIRE(Readable<ReadPlace>);
  STATIC_REQUIRE(!Readable<WritePlace>);
}

TEST_CASE("buffers are indexed by integers, never by floats") {
  STATIC_REQUIRE(Indexable<ReadBuffer<float>, UInt>);
  STATIC_REQUIRE(Indexable<ReadBuffer<float>, Int>);
  STATIC_REQUIRE(Indexable<ReadBuffer<float>, int>);
  STATIC_REQUIRE(!Indexable<ReadBuffer<float>, Float>);
  STATIC_REQUIRE(!Indexable<ReadBuffer<float>, float>);
}

TEST_CASE("a host literal initialises a device value only where it keeps its kind") {
  STATIC_REQUIRE(std::is_convertible_v<int, UInt>);  // range-checked when traced (errors_test)
  STATIC_REQUIRE(std::is_convertible_v<unsigned, Int>);
  STATIC_REQUIRE(std::is_convertible_v<int, Float>);
  STATIC_REQUIRE(std::is_convertible_v<double, Float>);
  STATIC_REQUIRE(std::is_convertible_v<bool, Bool>);
  STATIC_REQUIRE(!std::is_convertible_v<float, UInt>);  // UInt bad = 1.5f;
  STATIC_REQUIRE(!std::is_constructible_v<UInt, float>);
  STATIC_REQUIRE(!std::is_constructible_v<Int, double>);
  STATIC_REQUIRE(!std::is_constructible_v<ULong, float>);
  STATIC_REQUIRE(!std::is_convertible_v<int, Bool>);
  STATIC_REQUIRE(!std::is_convertible_v<bool, UInt>);
  STATIC_REQUIRE(!std::is_constructible_v<Var<UInt>, float>);
}

TEST_CASE("conversions between device types are explicit") {
  STATIC_REQUIRE(!std::is_convertible_v<Int, Float>);
  STATIC_REQUIRE(!std::is_convertible_v<UInt, ULong>);
  STATIC_REQUIRE(!std::is_convertible_v<Int, UInt>);
}

TEST_CASE("vector constructors exist exactly where the parts add up to the vector's size") {
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Float, Float, Float, Float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Vec2, Float, float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Float, Vec2, Float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, double, int, Vec2>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Vec2, vec2>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Vec3, Float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Float, Vec3>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Var<vec2>, FloatPlace, Float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec4, Float>);  // splat
  STATIC_REQUIRE(std::is_constructible_v<UVec4, unsigned>);  // UVec4(0u) too: a splat, never a null node
  STATIC_REQUIRE(std::is_constructible_v<Vec3, Vec2, Float>);
  STATIC_REQUIRE(std::is_constructible_v<Vec3, Float, Vec2>);
  STATIC_REQUIRE(std::is_constructible_v<Vec2, Float, float>);
  STATIC_REQUIRE(std::is_constructible_v<IVec4, IVec2, Int, int>);
  STATIC_REQUIRE(std::is_constructible_v<UVec3, UInt, UInt, unsigned>);
  STATIC_REQUIRE(std::is_constructible_v<BVec2, Bool, bool>);
  STATIC_REQUIRE(std::is_constructible_v<Expr<i64vec2>, Long, Long>);

  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Float, Float, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Float, Float, Float, Float, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Vec2, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Vec3, Vec2>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Vec2, Vec2, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec3, Vec2, Vec2>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec3, Float, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec2, Float, Float, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec2, Vec2, Float>);
  // Components have the vector's component type; literals follow the typing rules.
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, Int, Int, Int, Int>);
  STATIC_REQUIRE(!std::is_constructible_v<IVec2, Float, Float>);
  STATIC_REQUIRE(!std::is_constructible_v<IVec2, int, double>);
  STATIC_REQUIRE(!std::is_constructible_v<UVec4, UVec2, Int, UInt>);
  STATIC_REQUIRE(!std::is_constructible_v<Vec4, IVec2, Float, Float>);
  // A splat is written out: a scalar never turns into a vector value implicitly, and
  // scalars have no such constructors.
  STATIC_REQUIRE(!std::is_convertible_v<Float, Vec4>);
  STATIC_REQUIRE(!std::is_constructible_v<Float, Float, Float>);
}

namespace {

// A helper written against the alias, as users write them.
void add_to(const Var<UInt>& total, UInt amount) { total = total + amount; }
template <class V>
concept TakesUIntVar = requires(V v) { add_to(v, UInt(1u)); };

}  // namespace

TEST_CASE("Var of an alias and Var of its host type are one type") {
  STATIC_REQUIRE(std::is_same_v<Var<UInt>, Var<std::uint32_t>>);
  STATIC_REQUIRE(std::is_same_v<Var<Float>, Var<float>>);
  STATIC_REQUIRE(std::is_same_v<Var<Vec4>, Var<vec4>>);
  STATIC_REQUIRE(std::is_same_v<Var<ULong>, Var<std::uint64_t>>);
  STATIC_REQUIRE(TakesUIntVar<Var<std::uint32_t>>);
  STATIC_REQUIRE(TakesUIntVar<Var<UInt>>);
  STATIC_REQUIRE(!TakesUIntVar<Var<std::int32_t>>);

  auto k = kernel("alias_var", [](Buffer<std::uint32_t> out) {
    Var<std::uint32_t> total = 1u;
    add_to(total, 2u);
    out[0u] = total;
  });
  CHECK(k.ir()->entry.vars.size() == 1);
}
