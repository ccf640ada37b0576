// Field elements as a kernel author uses them: in Var<Fp<P>> under device loops, as
// parameters and results of the author's own callables, mixed with buffer places; the
// module sizes the shared device functions keep; and the errors of bad constants.
#include "field_device_support.hpp"

using namespace sprig;
using field_test::Reference;

namespace {

using Fq = field::Fp<field::Bn254Base>;
using Fr = field::Fp<field::Bn254Scalar>;
using MFq = field::Montgomery<field::Bn254Base>;

// Elements of different fields, or canonical structs, do not mix.
template <class A, class B>
concept Multipliable = requires(A a, B b) { a * b; };
template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
static_assert(Multipliable<Fq, Fq> && Addable<Fq, Fq> && Multipliable<Fq, Place<MFq, Access::Read>>);
static_assert(!Multipliable<Fq, Fr> && !Addable<Fq, Fr>);
static_assert(!Multipliable<Fq, Expr<field::Canonical<field::Bn254Base>>>);
// Var<Fp<P>> is a Var of its Montgomery struct.
static_assert(std::is_same_v<Var<Fq>, Var<MFq>>);

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("Horner's rule in a Var, through a callable of the author's, on both backends", "[field]") {
  using Ref = Reference<field::Bn254Base>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto mul_add = callable("mul_add", [](Fq a, Fq b, Fq c) -> Fq { return a * b + c; });
  // p(x) = sum_j coefficients[j] x^j at x = points[i].
  auto k = kernel("horner", [&](ReadBuffer<MFq> coefficients, ReadBuffer<MFq> points, WriteBuffer<MFq> out) {
    UInt i = global_id().x();
    if_(i < points.size(), [&] {
      Fq x = points[i];
      Var<Fq> acc = Fq::zero();
      UInt degree = coefficients.size() - 1u;
      for_(0u, coefficients.size(), [&](UInt k) { acc = mul_add(acc, x, coefficients[degree - k]); });
      out[i] = acc;
    });
  }, workgroup(16));
  std::vector<mpz_class> coefficients = field_test::test_values<field::Bn254Base>(20, 31);
  std::vector<mpz_class> points = field_test::test_values<field::Bn254Base>(40, 32);
  auto out = device.alloc<MFq>(points.size());
  device.run(k, grid(points.size()), device.upload(field_test::montgomery_elements<field::Bn254Base>(coefficients)),
             device.upload(field_test::montgomery_elements<field::Bn254Base>(points)), out);
  std::vector<mpz_class> expected;
  for (const mpz_class& x : points) {
    mpz_class acc = 0;
    for (std::size_t j = coefficients.size(); j-- > 0;) acc = Ref::mod(acc * x + coefficients[j]);
    expected.push_back(acc);
  }
  field_test::check_elements<field::Bn254Base>(device.download(out), expected, "horner");
}

TEST_CASE("constants on the device: zero, one, host elements, text and integers", "[field]") {
  using Ref = Reference<field::Bls12381Base>;
  using F = field::Fp<field::Bls12381Base>;
  using M = field::Montgomery<field::Bls12381Base>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::string big = "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
  auto k = kernel("field_constants", [&](WriteBuffer<M> out) {
    out[0] = F::zero();
    out[1] = F::one();
    out[2] = F::constant(field::Canonical<field::Bls12381Base>::from_u64(5));
    out[3] = F::constant(big);
    out[4] = F::constant(std::uint64_t(1) << 63) * F::constant("2");
    out[5] = -F::one();
  }, workgroup(1));
  auto out = device.alloc<M>(6);
  device.run(k, grid(1), out);
  mpz_class p = Ref::p();
  field_test::check_elements<field::Bls12381Base>(device.download(out),
                                                  {0, 1, 5, mpz_class(big), mpz_class(1) << 64, p - 1}, "constants");
}

TEST_CASE("a canonical element passed in push constants", "[field]") {
  using Ref = Reference<field::Bls12381Base>;
  using C = field::Canonical<field::Bls12381Base>;
  using F = field::Fp<field::Bls12381Base>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto k = kernel("push_constant_element", [](Expr<C> c, WriteBuffer<C> out) {
    F x = F::from_canonical(c);
    out[0] = (x * x).canonical();
  }, workgroup(1));
  C c = C::parse("123456789012345678901234567890123456789");
  auto out = device.alloc<C>(1);
  device.run(k, grid(1), c, out);
  CHECK(Ref::value(device.download(out)[0]) == Ref::mod(Ref::value(c) * Ref::value(c)));
}

TEST_CASE("bad constants are trace errors naming the field, the problem and the line", "[field]") {
  std::uint32_t line = 0;
  auto trace = [&](std::string_view text) {
    return kernel("bad_constant", [&](WriteBuffer<MFq> out) {
      line = std::source_location::current().line() + 1;
      out[0] = Fq::constant(text);
    });
  };
  try {
    trace("12q");
    FAIL("no error");
  } catch (const TraceError& e) {
    CHECK_THAT(e.what(), Catch::Contains("bn254_fq: '12q' is not a number: a character that is no decimal digit"));
    CHECK(e.where().line == line);
  }
  CHECK_THROWS_WITH(trace(std::string(field::Bn254Base::modulus)),
                    Catch::Contains("is not below the modulus") && Catch::Contains("field_usage_test.cpp"));
  CHECK_THROWS_WITH(kernel("bad_small_constant", [](WriteBuffer<field::Montgomery<field_test::BabyBear>> out) {
                      out[0] = field::Fp<field_test::BabyBear>::constant(std::uint64_t(1) << 40);
                    }),
                    Catch::Contains("babybear: 1099511627776 is not below the modulus"));
}

TEST_CASE("16 products in a kernel call one device function: the module stays small", "[field]") {
  auto k = kernel("sixteen_products", [](ReadBuffer<MFq> a, WriteBuffer<MFq> out) {
    Fq x = a[0], acc = x;
    for (int j = 0; j < 16; ++j) acc = acc * x;
    Fq sum = acc + x - x;
    out[0] = sum;
  });
  std::vector<std::uint32_t> words = compiler::compile(*k.ir());  // spirv-val runs here
  std::string text = compiler::disassemble(words);
  CHECK(count_of(text, "OpFunctionCall") == 18);
  CHECK(count_of(text, " OpFunction ") == 4);  // main, the product, the sum and the difference
  CHECK(count_of(text, "OpUMulExtended") == 2 * 8 * 8);  // one function body: 2 N^2 high halves
  CHECK(words.size() * 4 < 64 * 1024);
}
