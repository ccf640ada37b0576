// A kernel's semantic hash keys SPIR-V cached on disk, so it must be the same in every
// process: it may depend on what the kernel computes, never on where types were interned.
#include <catch2/catch.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sprig/dsl.hpp"

extern char** environ;

using namespace sprig;

namespace semantic_hash_test {

struct Particle {
  vec2 position;
  std::uint32_t bounces;
  float mass;
};
SPRIG_STRUCT(Particle, position, bounces, mass)

// Scalars, vectors, a struct, a local array and a callable: every kind of type the hash sees.
std::uint64_t sample_hash() {
  auto weigh = callable("weigh", [](Float mass, UInt bounces) -> Float { return mass * cast<float>(bounces); });
  auto k = kernel("hash_sample", [&](Buffer<Particle> particles, WriteBuffer<float> weights) {
    UInt i = global_id().x();
    Var<std::array<std::uint32_t, 4>> history;
    history[i % 4u] = i;
    Expr<Particle> p = particles[i];
    weights[i] = weigh(p[&Particle::mass], p[&Particle::bounces] + history[0u]);
  });
  return k.ir()->hash;
}

}  // namespace semantic_hash_test

using namespace semantic_hash_test;

TEST_CASE("child process: write the sample kernel's semantic hash", "[.hash-child]") {
  const char* out = std::getenv("SPRIG_TEST_HASH_OUT");
  REQUIRE(out != nullptr);
  std::ofstream(out) << sample_hash();
}

TEST_CASE("a kernel's semantic hash is the same in another process") {
  // Interning other types first moves this process's types away from the child's addresses.
  for (std::uint32_t n = 2; n < 40; ++n) (void)ir::array_type(ir::vector_type(ir::ScalarKind::F32, 3), n);
  std::uint64_t here = sample_hash();
  CHECK(here == sample_hash());

  std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("sprig-hash-" + std::to_string(::getpid()) + ".txt");
  std::string variable = "SPRIG_TEST_HASH_OUT=" + out.string();
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  env.push_back(variable.data());
  env.push_back(nullptr);
  std::string self = "/proc/self/exe";
  std::string name = "child process: write the sample kernel's semantic hash";
  std::vector<char*> argv{self.data(), name.data(), nullptr};
  pid_t child = 0;
  REQUIRE(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv.data(), env.data()) == 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::uint64_t there = 0;
  std::ifstream(out) >> there;
  std::filesystem::remove(out);
  CHECK(there == here);
}
