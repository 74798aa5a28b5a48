#include "saltus/model/tape.hpp"

#include <algorithm>
#include <unordered_map>

namespace saltus::model {

int Tape::operation_count() const {
  return static_cast<int>(std::count_if(
      code.begin(), code.end(), [](const TapeInstruction& i) { return i.op != OpCode::Store; }));
}

namespace {

// One step of the tape before registers are chosen.
struct Item {
  bool store = false;
  NodeId node = kNoNode;
  std::int32_t slot = 0;
};

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
        items.push_back({false, id, 0});
      }
      stack.pop_back();
    }
    items.push_back({true, o.node, o.slot});
  }
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
    const ExpressionNode& n = graph.node(it.node);
    for (NodeId operand : {n.a, n.b, n.c}) {
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
    const ExpressionNode& n = graph.node(it.node);
    in.op = n.op;
    in.exponent = n.op == OpCode::PowConst ? n.value : 0.0;
    in.a = reg[static_cast<size_t>(n.a)];
    in.b = n.b != kNoNode ? reg[static_cast<size_t>(n.b)] : 0;
    in.c = n.c != kNoNode ? reg[static_cast<size_t>(n.c)] : 0;
    for (NodeId operand : {n.a, n.b, n.c}) {
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

}  // namespace saltus::model
