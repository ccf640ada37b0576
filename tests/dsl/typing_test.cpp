// The typing rules of the DSL, checked at compile time: what must not compile does not.
#include <catch2/catch.hpp>

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

TEST_CASE("conversions between device types are explicit") {
  STATIC_REQUIRE(!std::is_convertible_v<Int, Float>);
  STATIC_REQUIRE(!std::is_convertible_v<UInt, ULong>);
  STATIC_REQUIRE(!std::is_convertible_v<Int, UInt>);
}
