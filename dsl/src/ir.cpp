#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Constant: return "Constant";
    case Op::Param: return "Param";
    case Op::Builtin: return "Builtin";
    case Op::VarRoot: return "VarRoot";
    case Op::BufferRoot: return "BufferRoot";
    case Op::SharedRoot: return "SharedRoot";
    case Op::Access: return "Access";
    case Op::Add: return "Add";
    case Op::Sub: return "Sub";
    case Op::Mul: return "Mul";
    case Op::Div: return "Div";
    case Op::Rem: return "Rem";
    case Op::Neg: return "Neg";
    case Op::FloorDiv: return "FloorDiv";
    case Op::Mod: return "Mod";
    case Op::BitAnd: return "BitAnd";
    case Op::BitOr: return "BitOr";
    case Op::BitXor: return "BitXor";
    case Op::BitNot: return "BitNot";
    case Op::Shl: return "Shl";
    case Op::Shr: return "Shr";
    case Op::LogicalAnd: return "LogicalAnd";
    case Op::LogicalOr: return "LogicalOr";
    case Op::LogicalNot: return "LogicalNot";
    case Op::Eq: return "Eq";
    case Op::Ne: return "Ne";
    case Op::Lt: return "Lt";
    case Op::Le: return "Le";
    case Op::Gt: return "Gt";
    case Op::Ge: return "Ge";
    case Op::Select: return "Select";
    case Op::RotateLeft: return "RotateLeft";
    case Op::RotateRight: return "RotateRight";
    case Op::MulHi: return "MulHi";
    case Op::AddCarry: return "AddCarry";
    case Op::PopCount: return "PopCount";
    case Op::CountLeadingZeros: return "CountLeadingZeros";
    case Op::CountTrailingZeros: return "CountTrailingZeros";
    case Op::BitReverse: return "BitReverse";
    case Op::ByteSwap: return "ByteSwap";
    case Op::BitfieldExtract: return "BitfieldExtract";
    case Op::BitfieldInsert: return "BitfieldInsert";
    case Op::Convert: return "Convert";
    case Op::Bitcast: return "Bitcast";
    case Op::Math: return "Math";
    case Op::Construct: return "Construct";
    case Op::Extract: return "Extract";
    case Op::Insert: return "Insert";
    case Op::DynamicExtract: return "DynamicExtract";
    case Op::Shuffle: return "Shuffle";
    case Op::ArrayLength: return "ArrayLength";
    case Op::DeclareVar: return "DeclareVar";
    case Op::Load: return "Load";
    case Op::Store: return "Store";
    case Op::Atomic: return "Atomic";
    case Op::Barrier: return "Barrier";
    case Op::Subgroup: return "Subgroup";
    case Op::Call: return "Call";
    case Op::If: return "If";
    case Op::Loop: return "Loop";
    case Op::Break: return "Break";
    case Op::Continue: return "Continue";
    case Op::Return: return "Return";
  }
  return "?";
}

bool is_statement(Op op) {
  switch (op) {
    case Op::DeclareVar:
    case Op::Load:
    case Op::Store:
    case Op::Atomic:
    case Op::Barrier:
    case Op::Subgroup:
    case Op::Call:
    case Op::If:
    case Op::Loop:
    case Op::Break:
    case Op::Continue:
    case Op::Return: return true;
    default: return false;
  }
}

bool is_pointer_op(Op op) {
  return op == Op::VarRoot || op == Op::BufferRoot || op == Op::SharedRoot || op == Op::Access;
}

}  // namespace sprig::ir
