// The public entry points: emit, compile (emit + validate + optimise) and the kernel-level
// disassembly convenience.
#include "sprig/compiler/compile.hpp"

#include "emitter.hpp"

namespace sprig::compiler {

std::vector<std::uint32_t> emit(const ir::Kernel& kernel, bool debug_info) {
  CompileOptions options;
  options.debug_info = debug_info;
  return emit(kernel, options);
}

std::vector<std::uint32_t> emit(const ir::Kernel& kernel, const CompileOptions& options) {
  return Emitter(kernel, options).run();
}

std::vector<std::uint32_t> compile(const ir::Kernel& kernel, const CompileOptions& options) {
  std::vector<std::uint32_t> words = emit(kernel, options);
  if (options.validate) {
    std::string errors = validation_errors(words);
    if (!errors.empty())
      throw CompileError(describe("the emitted SPIR-V does not validate (a compiler bug; please report it with "
                                  "the kernel): " + errors,
                                  kernel.name, kernel.loc));
  }
  if (options.optimize) words = optimize(words);
  return words;
}

std::string disassemble(const ir::Kernel& kernel, bool debug_info) { return disassemble(emit(kernel, debug_info)); }

}  // namespace sprig::compiler
