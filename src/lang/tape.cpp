#include "saltus/lang/tape.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace saltus::lang {

int Tape::operation_count() const {
  return static_cast<int>(std::count_if(
      code.begin(), code.end(), [](const TapeInstruction& i) { return i.op != OpCode::Store; }));
}

bool Tape::stores_every_slot() const {
  std::vector<char> stored(static_cast<size_t>(outputs), 0);
  const auto store = [&](std::int32_t slot) {
    if (slot >= 0 && slot < outputs) stored[static_cast<size_t>(slot)] = 1;
  };
  for (const TapeLoad& o : leaf_outputs) store(o.index);
  for (const TapeInstruction& in : code) store(in.op == OpCode::Store ? in.out : in.slot);
  return std::all_of(stored.begin(), stored.end(), [](char c) { return c != 0; });
}

namespace {

// One step of the tape before registers are chosen: a store, or the operation computing `node`
// (op and operands start as the graph's; fuse() may merge a product into it).
struct Item {
  bool store = false;
  bool removed = false;  // merged into the operation that reads it
  NodeId node = kNoNode;
  std::int32_t slot = 0;
  OpCode op = OpCode::Const;
  NodeId operand[3] = {kNoNode, kNoNode, kNoNode};
};

// Merges a product read only by the next-level Mul, Add or Sub into it (see tape.hpp).
void fuse(const ExpressionGraph& graph, std::vector<Item>& items) {
  std::vector<int> readers(static_cast<size_t>(graph.size()), 0);
  std::vector<int> item_of(static_cast<size_t>(graph.size()), -1);
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.store) {
      ++readers[static_cast<size_t>(it.node)];
      continue;
    }
    item_of[static_cast<size_t>(it.node)] = static_cast<int>(i);
    for (NodeId o : it.operand) {
      if (o != kNoNode) ++readers[static_cast<size_t>(o)];
    }
  }
  // The factors (x, y) of `id` when it is a product (or square) computed by a plain item and
  // read only once; else false.
  auto product = [&](NodeId id, NodeId& x, NodeId& y) {
    const int k = item_of[static_cast<size_t>(id)];
    if (k < 0 || readers[static_cast<size_t>(id)] != 1) return false;
    const Item& it = items[static_cast<size_t>(k)];
    if (it.removed || (it.op != OpCode::Mul && it.op != OpCode::Square)) return false;
    x = it.operand[0];
    y = it.op == OpCode::Square ? it.operand[0] : it.operand[1];
    items[static_cast<size_t>(k)].removed = true;
    return true;
  };
  for (Item& it : items) {
    if (it.store || it.removed) continue;
    const NodeId p = it.operand[0], q = it.operand[1];
    NodeId x, y;
    switch (it.op) {
      case OpCode::Mul:  // (x y) q  or  p (x y) = (x y) p
        if (product(p, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::Mul3, {x, y, q}};
        } else if (product(q, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::Mul3, {x, y, p}};
        }
        break;
      case OpCode::Add:  // x y + q  or  p + x y
        if (product(p, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::MulAdd, {x, y, q}};
        } else if (product(q, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::MulAdd, {x, y, p}};
        }
        break;
      case OpCode::Sub:  // x y - q  or  p - x y
        if (product(p, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::MulSub, {x, y, q}};
        } else if (product(q, x, y)) {
          it = Item{false, false, it.node, 0, OpCode::SubMul, {x, y, p}};
        }
        break;
      default:
        break;
    }
  }
  std::erase_if(items, [](const Item& it) { return it.removed; });
}

}  // namespace

Tape compile_tape(const ExpressionGraph& graph, const std::vector<TapeOutput>& outputs) {
  Tape tape;
  const auto n_nodes = static_cast<size_t>(graph.size());
  // 1. Depth-first post-order from each output in turn (iterative: graphs may be deep); each
  //    output is stored right after its last operation.
  std::vector<char> visited(n_nodes, 0);
  std::vector<Item> items;
  std::vector<NodeId> leaves;
  std::vector<std::pair<NodeId, int>> stack;  // (node, next operand to visit)
  for (const TapeOutput& o : outputs) {
    tape.outputs = std::max(tape.outputs, static_cast<int>(o.slot) + 1);
    if (!visited[static_cast<size_t>(o.node)]) {
      stack.push_back({o.node, 0});
      visited[static_cast<size_t>(o.node)] = 1;
    }
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const ExpressionNode& n = graph.node(id);
      const int k = arity(n.op);
      if (next < k) {
        const NodeId child = next == 0 ? n.a : (next == 1 ? n.b : n.c);
        ++next;
        if (!visited[static_cast<size_t>(child)]) {
          visited[static_cast<size_t>(child)] = 1;
          stack.push_back({child, 0});
        }
        continue;
      }
      if (k == 0) {
        leaves.push_back(id);
      } else {
        items.push_back({false, false, id, 0, n.op, {n.a, n.b, n.c}});
      }
      stack.pop_back();
    }
    items.push_back({true, false, o.node, o.slot});
  }
  fuse(graph, items);
  // 2. Fixed registers: t, loads and constants, for the whole tape.
  std::vector<std::int32_t> reg(n_nodes, -1);
  std::int32_t next_reg = 0;
  std::sort(leaves.begin(), leaves.end());
  for (NodeId id : leaves) {
    const ExpressionNode& n = graph.node(id);
    const std::int32_t r = next_reg++;
    reg[static_cast<size_t>(id)] = r;
    switch (n.op) {
      case OpCode::Const:
        tape.constants.push_back({r, n.value});
        break;
      case OpCode::Time:
        tape.time_register = r;
        break;
      case OpCode::State:
        tape.loads_x.push_back({r, n.index});
        break;
      case OpCode::StateRate:
        tape.loads_rate.push_back({r, n.index});
        break;
      case OpCode::Parameter:
        if (graph.parameter_values() == nullptr ||
            n.index >= static_cast<int>(graph.parameter_values()->size())) {
          throw std::logic_error("compile_tape: run-time parameter " + std::to_string(n.index) +
                                 " has no value in the graph");
        }
        tape.loads_p.push_back({r, n.index});
        tape.parameter_values = graph.parameter_values();
        break;
      default:
        tape.loads_z.push_back({r, n.index});
        break;
    }
  }
  // 3. Last reader of every value.
  std::vector<int> last_use(n_nodes, -1);
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    if (it.store) {
      last_use[static_cast<size_t>(it.node)] = static_cast<int>(i);
      continue;
    }
    for (NodeId operand : it.operand) {
      if (operand != kNoNode) last_use[static_cast<size_t>(operand)] = static_cast<int>(i);
    }
  }
  // 4. Intermediate registers, reused once their value has no later reader (an operation may
  //    write the register of an operand it reads last: operands are read before the write).
  const std::int32_t first_temp = next_reg;
  std::vector<std::int32_t> free_regs;
  std::int32_t temps = 0;
  auto release = [&](NodeId id, int at) {
    const std::int32_t r = reg[static_cast<size_t>(id)];
    if (r >= first_temp && last_use[static_cast<size_t>(id)] == at) {
      free_regs.push_back(r);
      last_use[static_cast<size_t>(id)] = -2;  // released (an operand may appear twice)
    }
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    const int at = static_cast<int>(i);
    TapeInstruction in;
    if (it.store) {
      const std::int32_t r = reg[static_cast<size_t>(it.node)];
      if (r < first_temp) {
        tape.leaf_outputs.push_back({r, it.slot});
      } else if (!tape.code.empty() && tape.code.back().op != OpCode::Store &&
                 tape.code.back().out == r && tape.code.back().slot < 0) {
        tape.code.back().slot = it.slot;  // fused into the operation that computed it
      } else {
        in.op = OpCode::Store;
        in.out = it.slot;
        in.a = r;
        tape.code.push_back(in);
      }
      release(it.node, at);
      continue;
    }
    in.op = it.op;
    in.exponent = it.op == OpCode::PowConst ? graph.node(it.node).value : 0.0;
    in.a = reg[static_cast<size_t>(it.operand[0])];
    in.b = it.operand[1] != kNoNode ? reg[static_cast<size_t>(it.operand[1])] : 0;
    in.c = it.operand[2] != kNoNode ? reg[static_cast<size_t>(it.operand[2])] : 0;
    for (NodeId operand : it.operand) {
      if (operand != kNoNode) release(operand, at);
    }
    std::int32_t r;
    if (!free_regs.empty()) {
      r = free_regs.back();
      free_regs.pop_back();
    } else {
      r = first_temp + temps++;
    }
    reg[static_cast<size_t>(it.node)] = r;
    in.out = r;
    tape.code.push_back(in);
  }
  tape.registers = first_temp + temps;
  return tape;
}

}  // namespace saltus::lang
