#include "sprig/dsl/printer.hpp"

#include <cstring>
#include <sstream>

#include "sprig/dsl/print_text.hpp"
#include "sprig/dsl/topo.hpp"

namespace sprig::ir {

namespace {

std::string file_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

class Printer {
 public:
  Printer(std::ostringstream& out, bool locations) : out_(out), locations_(locations) {}

  void function(const Function& f, const std::string& header) {
    out_ << header << " {\n";
    block(*f.body, 1);
    out_ << "}\n";
  }

 private:
  void block(const Block& b, int depth) {
    for (NodeRef n : schedule(b)) node(*n, depth);
  }

  static std::string ref(const Node& n) { return "%" + std::to_string(n.id); }

  void node(const Node& n, int depth) {
    std::string indent(std::size_t(depth) * 2, ' ');
    std::ostringstream line;
    line << indent;
    if (!n.type->is_void()) line << ref(n) << " = ";
    line << op_name(n.op);
    immediates(line, n);
    for (NodeRef o : n.operands) line << " " << ref(*o);
    if (!n.type->is_void()) line << " : " << (is_pointer_op(n.op) ? "ptr " : "") << to_string(n.type);
    if (!n.name.empty()) line << " \"" << n.name << "\"";
    std::string text = line.str();
    if (locations_ && n.loc.known()) {
      if (text.size() < 64) text.resize(64, ' ');
      text += "  ; " + file_name(n.loc.file) + ":" + std::to_string(n.loc.line);
    }
    out_ << text;
    if (n.op == Op::If) {
      out_ << " {\n";
      block(*n.blocks[0], depth + 1);
      if (!n.blocks[1]->statements.empty()) {
        out_ << indent << "} else {\n";
        block(*n.blocks[1], depth + 1);
      }
      out_ << indent << "}";
    } else if (n.op == Op::Loop) {
      out_ << " {\n";
      if (!n.blocks[0]->statements.empty() || !n.operands.empty()) {
        out_ << indent << " header:\n";
        block(*n.blocks[0], depth + 1);
      }
      out_ << indent << " body:\n";
      block(*n.blocks[1], depth + 1);
      if (!n.blocks[2]->statements.empty()) {
        out_ << indent << " continuing:\n";
        block(*n.blocks[2], depth + 1);
      }
      out_ << indent << "}";
    }
    out_ << "\n";
  }

  // The immediates the op's row in ops.def asks for.
  static void immediates(std::ostringstream& line, const Node& n) {
    switch (is_known(n.op) ? op_info(n.op).print : PrintStyle::Plain) {
      case PrintStyle::Plain: break;
      case PrintStyle::Data:
        line << " [";
        for (std::size_t i = 0; i < n.imm.size(); ++i) {
          if (i) line << ", ";
          if (n.type->is_float()) {
            float f;
            std::uint32_t bits = std::uint32_t(n.imm[i]);
            std::memcpy(&f, &bits, 4);
            line << f;
          } else if (n.type->is_signed_int()) {
            line << std::int64_t(n.imm[i]);
          } else {
            line << n.imm[i];
          }
        }
        line << "]";
        break;
      case PrintStyle::Lanes:
        line << " <";
        for (std::uint64_t i : n.imm) line << i;
        line << ">";
        break;
      case PrintStyle::Index: line << "(" << n.a << b_of(n) << ")"; break;
      case PrintStyle::BuiltinName: line << "(" << builtin_name(Builtin(n.a)) << b_of(n) << ")"; break;
      case PrintStyle::MathName: line << "(" << math_function_name(MathFn(n.a)) << b_of(n) << ")"; break;
      case PrintStyle::AtomicName: line << "(" << atomic_op_name(AtomicOp(n.a)) << b_of(n) << ")"; break;
      case PrintStyle::SubgroupName: line << "(" << subgroup_op_name(SubgroupOp(n.a)) << b_of(n) << ")"; break;
    }
  }

  // The second immediate, where it is not 0.
  static std::string b_of(const Node& n) { return n.b ? "," + std::to_string(n.b) : ""; }

  std::ostringstream& out_;
  bool locations_;
};

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Scalar: return "push constant";
    case ParamKind::StorageBuffer: return "storage buffer";
    case ParamKind::Uniform: return "uniform";
  }
  return "?";
}

}  // namespace

std::string print(const Kernel& k, bool with_locations) {
  std::ostringstream out;
  out << "kernel " << k.name << " workgroup(" << k.workgroup_size[0] << ", " << k.workgroup_size[1] << ", "
      << k.workgroup_size[2] << ")" << (k.precise_floats ? " precise_floats" : "") << "\n";
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const Param& p = k.params[i];
    // Nodes refer to parameters by index; a name the user gave follows it.
    const std::string label = "param" + std::to_string(i);
    out << "  " << label;
    if (!p.name.empty() && p.name != label) out << " \"" << p.name << "\"";
    out << ": " << kind_name(p.kind) << " " << to_string(p.type);
    if (p.kind == ParamKind::Scalar) out << " @" << p.push_offset;
    else out << " binding " << p.binding;
    if (p.kind == ParamKind::StorageBuffer)
      out << (p.access == Access::Read ? " read" : p.access == Access::Write ? " write" : " read-write");
    out << "\n";
  }
  for (std::size_t i = 0; i < k.shared.size(); ++i)
    out << "  shared" << i << ": " << to_string(k.shared[i].type) << " " << k.shared[i].name << "\n";
  for (std::size_t i = 0; i < k.prints.size(); ++i)
    out << "  print" << i << ": \"" << print_format_text(k.prints[i]) << "\"\n";
  Printer printer(out, with_locations);
  for (std::size_t i = 0; i < k.functions.size(); ++i) {
    const Function& f = *k.functions[i];
    std::string header = "function " + std::to_string(i) + " " + f.name + "(";
    for (std::size_t p = 0; p < f.param_types.size(); ++p) header += (p ? ", " : "") + to_string(f.param_types[p]);
    header += ") -> " + to_string(f.result);
    printer.function(f, header);
  }
  printer.function(k.entry, "main");
  return out.str();
}

}  // namespace sprig::ir
