// All seven tables of a seed, each built from its parent.
#include "tables.hpp"

namespace pos_ref {

Tables build_tables(const Seed& seed, int k, Mode mode) {
  Tables tables;
  tables.k = k;
  tables.mode = mode;
  tables.table[1] = build_table1(seed, k, mode);
  for (int t = 2; t <= 7; ++t) tables.table[t] = build_child_table(tables.table[t - 1], k, mode, t);
  return tables;
}

}  // namespace pos_ref
