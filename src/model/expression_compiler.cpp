// Recursive-descent parser into a node pool, constant folding, then emission of stack code.
// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/model/expression_compiler.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <sstream>

namespace saltus::model {
namespace {

// Deepest nesting of parentheses, unary operators and calls the parser follows (keeps the
// recursion bounded for any input).
constexpr int kMaxNesting = 200;

struct FunctionInfo {
  const char* name;
  OpCode op;
  int min_args;
  int max_args;
};

constexpr FunctionInfo kFunctions[] = {
    {"min", OpCode::Min, 2, 64},  {"max", OpCode::Max, 2, 64},  {"abs", OpCode::Abs, 1, 1},
    {"sign", OpCode::Sign, 1, 1}, {"pow", OpCode::Pow, 2, 2},   {"sqrt", OpCode::Sqrt, 1, 1},
    {"exp", OpCode::Exp, 1, 1},   {"log", OpCode::Log, 1, 1},   {"sin", OpCode::Sin, 1, 1},
    {"cos", OpCode::Cos, 1, 1},   {"tan", OpCode::Tan, 1, 1},   {"asin", OpCode::Asin, 1, 1},
    {"acos", OpCode::Acos, 1, 1}, {"atan", OpCode::Atan, 1, 1}, {"atan2", OpCode::Atan2, 2, 2},
    {"sinh", OpCode::Sinh, 1, 1}, {"cosh", OpCode::Cosh, 1, 1}, {"tanh", OpCode::Tanh, 1, 1},
    {"if", OpCode::If, 3, 3},
};

const FunctionInfo* find_function(std::string_view name) {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

// One node of the parsed expression. Leaves: Const (value), Time, State/StateRate/Algebraic
// (index). Operators: op with children a, b, c (-1 when absent); min/max with more than two
// arguments are nested into binary nodes by the parser.
struct Node {
  OpCode op = OpCode::Const;
  double value = 0.0;
  int index = 0;
  int a = -1, b = -1, c = -1;
  int offset = 0;
};

int arity(OpCode op) {
  switch (op) {
    case OpCode::Const:
    case OpCode::Time:
    case OpCode::State:
    case OpCode::StateRate:
    case OpCode::Algebraic:
      return 0;
    case OpCode::Neg:
    case OpCode::PowConst:
    case OpCode::Square:
    case OpCode::Sqrt:
    case OpCode::Exp:
    case OpCode::Log:
    case OpCode::Sin:
    case OpCode::Cos:
    case OpCode::Tan:
    case OpCode::Asin:
    case OpCode::Acos:
    case OpCode::Atan:
    case OpCode::Sinh:
    case OpCode::Cosh:
    case OpCode::Tanh:
    case OpCode::Abs:
    case OpCode::Sign:
      return 1;
    case OpCode::If:
      return 3;
    default:
      return 2;
  }
}

// Value of an operator on constant operands (used for folding; same rules as evaluate()).
double fold(OpCode op, double a, double b, double c) {
  switch (op) {
    case OpCode::Neg:
      return -a;
    case OpCode::Add:
      return a + b;
    case OpCode::Sub:
      return a - b;
    case OpCode::Mul:
      return a * b;
    case OpCode::Div:
      return a / b;
    case OpCode::Pow:
    case OpCode::PowConst:
      return std::pow(a, b);
    case OpCode::Square:
      return a * a;
    case OpCode::Sqrt:
      return std::sqrt(a);
    case OpCode::Exp:
      return std::exp(a);
    case OpCode::Log:
      return std::log(a);
    case OpCode::Sin:
      return std::sin(a);
    case OpCode::Cos:
      return std::cos(a);
    case OpCode::Tan:
      return std::tan(a);
    case OpCode::Asin:
      return std::asin(a);
    case OpCode::Acos:
      return std::acos(a);
    case OpCode::Atan:
      return std::atan(a);
    case OpCode::Atan2:
      return std::atan2(a, b);
    case OpCode::Sinh:
      return std::sinh(a);
    case OpCode::Cosh:
      return std::cosh(a);
    case OpCode::Tanh:
      return std::tanh(a);
    case OpCode::Abs:
      return std::abs(a);
    case OpCode::Sign:
      return a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : a);
    case OpCode::Min:
      return b < a ? b : a;
    case OpCode::Max:
      return b > a ? b : a;
    case OpCode::Less:
      return a < b ? 1.0 : 0.0;
    case OpCode::LessEqual:
      return a <= b ? 1.0 : 0.0;
    case OpCode::Greater:
      return a > b ? 1.0 : 0.0;
    case OpCode::GreaterEqual:
      return a >= b ? 1.0 : 0.0;
    case OpCode::Equal:
      return a == b ? 1.0 : 0.0;
    case OpCode::NotEqual:
      return a != b ? 1.0 : 0.0;
    case OpCode::If:
      return a != 0.0 ? b : c;
    default:
      return a;
  }
}

std::string describe(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "the end of the expression";
  std::string s = "'";
  s += text[pos];
  return s + "'";
}

class Parser {
 public:
  Parser(std::string_view text, const SymbolTable& symbols, std::vector<Node>& nodes,
         std::vector<ExpressionIssue>& issues, int base)
      : text_(text), symbols_(symbols), nodes_(nodes), issues_(issues), base_(base) {}

  // Parses the whole text; returns the root node or -1.
  int parse_all() {
    const int root = comparison();
    if (failed_) return -1;
    skip_space();
    if (pos_ < text_.size()) {
      error(pos_, "unexpected " + describe(text_, pos_) +
                      "; expected an operator (+ - * / ^ < <= > >= == !=) or the end");
      return -1;
    }
    return root;
  }

 private:
  void error(size_t at, std::string message) {
    issues_.push_back({base_ + static_cast<int>(at), std::move(message)});
    failed_ = true;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) == token) {
      pos_ += token.size();
      return true;
    }
    return false;
  }
  int add(Node n) {
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
  }
  int binary(OpCode op, int a, int b, size_t at) {
    if (a < 0 || b < 0) return -1;
    Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    n.offset = static_cast<int>(at);
    return add(n);
  }
  bool enter(size_t at) {
    if (++depth_ > kMaxNesting) {
      if (!failed_) {
        error(at, "expression nested too deeply (more than " + std::to_string(kMaxNesting) +
                      " levels); expected a simpler expression");
      }
      return false;
    }
    return true;
  }

  int comparison() {
    int left = sum();
    if (failed_) return -1;
    skip_space();
    const size_t at = pos_;
    OpCode op;
    if (accept("<=")) {
      op = OpCode::LessEqual;
    } else if (accept(">=")) {
      op = OpCode::GreaterEqual;
    } else if (accept("==")) {
      op = OpCode::Equal;
    } else if (accept("!=")) {
      op = OpCode::NotEqual;
    } else if (accept("<")) {
      op = OpCode::Less;
    } else if (accept(">")) {
      op = OpCode::Greater;
    } else {
      return left;
    }
    const int right = sum();
    return binary(op, left, right, at);
  }

  int sum() {
    int left = product();
    while (!failed_) {
      skip_space();
      const size_t at = pos_;
      if (accept("+")) {
        left = binary(OpCode::Add, left, product(), at);
      } else if (accept("-")) {
        left = binary(OpCode::Sub, left, product(), at);
      } else {
        break;
      }
    }
    return failed_ ? -1 : left;
  }

  int product() {
    int left = unary();
    while (!failed_) {
      skip_space();
      const size_t at = pos_;
      if (text_.substr(pos_, 2) == "**") break;  // power, handled below unary
      if (accept("*")) {
        left = binary(OpCode::Mul, left, unary(), at);
      } else if (accept("/")) {
        left = binary(OpCode::Div, left, unary(), at);
      } else {
        break;
      }
    }
    return failed_ ? -1 : left;
  }

  int unary() {
    skip_space();
    const size_t at = pos_;
    if (!enter(at)) return -1;
    int result;
    if (accept("-")) {
      const int operand = unary();
      Node n;
      n.op = OpCode::Neg;
      n.a = operand;
      n.offset = static_cast<int>(at);
      result = operand < 0 ? -1 : add(n);
    } else if (accept("+")) {
      result = unary();
    } else {
      result = power();
    }
    --depth_;
    return failed_ ? -1 : result;
  }

  int power() {
    const int base = primary();
    if (failed_) return -1;
    skip_space();
    const size_t at = pos_;
    if (accept("^") || accept("**")) {
      const int exponent = unary();  // right-associative; allows 2^-1
      return binary(OpCode::Pow, base, exponent, at);
    }
    return base;
  }

  int number() {
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) {
        while (p < text_.size() && std::isdigit(static_cast<unsigned char>(text_[p]))) ++p;
        pos_ = p;
      } else {
        error(p, "malformed number: expected digits after the exponent 'e'");
        return -1;
      }
    }
    const std::string literal(text_.substr(start, pos_ - start));
    if (literal == ".") {
      error(start, "malformed number '.': expected digits");
      return -1;
    }
    Node n;
    n.op = OpCode::Const;
    n.value = std::strtod(literal.c_str(), nullptr);
    n.offset = static_cast<int>(start);
    return add(n);
  }

  int call(const FunctionInfo& f, std::string_view name, size_t at) {
    std::vector<int> args;
    std::vector<size_t> arg_offsets;
    skip_space();
    if (!accept(")")) {
      while (true) {
        skip_space();
        arg_offsets.push_back(pos_);
        const int arg = comparison();
        if (failed_) return -1;
        args.push_back(arg);
        if (accept(",")) continue;
        if (accept(")")) break;
        skip_space();
        error(pos_, "unexpected " + describe(text_, pos_) + " in the arguments of '" +
                        std::string(name) + "'; expected ',' or ')'");
        return -1;
      }
    }
    const int n_args = static_cast<int>(args.size());
    if (*f.name == '\0') return add(Node{});  // unknown function: already reported
    if (n_args < f.min_args || n_args > f.max_args) {
      std::ostringstream m;
      m << "function '" << name << "' takes ";
      if (f.min_args == f.max_args) {
        m << f.min_args << (f.min_args == 1 ? " argument" : " arguments");
      } else {
        m << "at least " << f.min_args << " arguments";
      }
      m << ", got " << n_args << "; expected " << f.min_args
        << (f.min_args == f.max_args ? "" : " or more");
      // Wrong arity is not a syntax error: keep parsing to find further problems.
      issues_.push_back({base_ + static_cast<int>(at), m.str()});
      arity_error_ = true;
      Node n;
      n.op = OpCode::Const;
      return add(n);
    }
    Node n;
    n.op = f.op;
    n.offset = static_cast<int>(at);
    if (f.op == OpCode::Min || f.op == OpCode::Max) {
      int acc = args[0];
      for (int i = 1; i < n_args; ++i) acc = binary(f.op, acc, args[i], at);
      return acc;
    }
    n.a = args[0];
    if (n_args > 1) n.b = args[1];
    if (n_args > 2) n.c = args[2];
    return add(n);
  }

  int name_node(std::string_view name, size_t at) {
    Node n;
    n.offset = static_cast<int>(at);
    skip_space();
    const bool prime = pos_ < text_.size() && text_[pos_] == '\'';
    if (prime) ++pos_;
    const auto find = [&](const std::vector<std::string>& list) {
      const auto it = std::find(list.begin(), list.end(), name);
      return it == list.end() ? -1 : static_cast<int>(it - list.begin());
    };
    if (prime) {
      const int i = find(symbols_.states);
      if (i < 0) {
        issues_.push_back({base_ + static_cast<int>(at),
                           "'" + std::string(name) +
                               "'' is not the rate of a differential state; expected one of the "
                               "states' names before the prime"});
        unknown_ = true;
      } else if (!symbols_.allow_state_rate) {
        issues_.push_back({base_ + static_cast<int>(at),
                           "rate " + std::string(name) +
                               "' is only allowed in the residuals of an implicit flow; expected "
                               "an expression of t, parameters and states"});
        unknown_ = true;
      }
      n.op = OpCode::StateRate;
      n.index = std::max(i, 0);
      return add(n);
    }
    if (name == "t") {
      if (!symbols_.allow_time) {
        issues_.push_back({base_ + static_cast<int>(at), "t is not allowed here"});
        unknown_ = true;
      }
      n.op = OpCode::Time;
      return add(n);
    }
    if (const auto it = symbols_.constants.find(name); it != symbols_.constants.end()) {
      n.op = OpCode::Const;
      n.value = it->second;
      return add(n);
    }
    if (const int i = find(symbols_.states); i >= 0) {
      n.op = OpCode::State;
      n.index = i;
      return add(n);
    }
    if (const int i = find(symbols_.algebraic); i >= 0 && symbols_.allow_algebraic) {
      n.op = OpCode::Algebraic;
      n.index = i;
      return add(n);
    }
    if (name == "pi") {
      n.op = OpCode::Const;
      n.value = std::numbers::pi;
      return add(n);
    }
    std::string message = "unknown symbol '" + std::string(name) + "'";
    if (find_function(name) != nullptr) {
      message += " (a function: expected '(' and its arguments after the name)";
    } else {
      message +=
          "; expected a parameter, a state" +
          std::string(symbols_.algebraic.empty() ? "" : ", an algebraic state of this mode") +
          (symbols_.allow_time ? ", t" : "") + " or pi";
    }
    issues_.push_back({base_ + static_cast<int>(at), message});
    unknown_ = true;
    n.op = OpCode::Const;
    return add(n);
  }

  int primary() {
    skip_space();
    const size_t at = pos_;
    if (pos_ >= text_.size()) {
      error(pos_, "expected a number, a name, a function call or '(' but found the end");
      return -1;
    }
    const char ch = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(ch)) || ch == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      const std::string_view name = text_.substr(at, pos_ - at);
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == '(') {
        const FunctionInfo* f = find_function(name);
        if (f == nullptr) {
          issues_.push_back({base_ + static_cast<int>(at),
                             "unknown function '" + std::string(name) +
                                 "'; expected one of min, max, abs, sign, pow, sqrt, exp, log, "
                                 "sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, if"});
          unknown_ = true;
        }
        ++pos_;
        if (!enter(at)) return -1;
        static constexpr FunctionInfo kAny{"", OpCode::Max, 0, 64};
        const int r = call(f != nullptr ? *f : kAny, name, at);
        --depth_;
        if (f == nullptr && r >= 0) {
          Node n;
          n.op = OpCode::Const;
          return add(n);
        }
        return r;
      }
      return name_node(name, at);
    }
    if (ch == '(') {
      ++pos_;
      if (!enter(at)) return -1;
      const int inner = comparison();
      --depth_;
      if (failed_) return -1;
      if (!accept(")")) {
        skip_space();
        error(pos_, "unexpected " + describe(text_, pos_) + "; expected ')' to close the '(' at " +
                        "column offset " + std::to_string(base_ + static_cast<int>(at) + 1));
        return -1;
      }
      return inner;
    }
    error(pos_, "unexpected " + describe(text_, pos_) +
                    "; expected a number, a name, a function call, '-' or '('");
    return -1;
  }

  std::string_view text_;
  const SymbolTable& symbols_;
  std::vector<Node>& nodes_;
  std::vector<ExpressionIssue>& issues_;
  int base_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;

 public:
  bool unknown_ = false;
  bool arity_error_ = false;
};

class Emitter {
 public:
  Emitter(std::vector<Node>& nodes, Program& program) : nodes_(nodes), program_(program) {}

  // Folds constant subtrees of `i` in place.
  void fold_tree(int i) {
    Node& n = nodes_[i];
    const int k = arity(n.op);
    if (k == 0) return;
    bool all_constant = true;
    for (int child : {n.a, n.b, n.c}) {
      if (child < 0) continue;
      fold_tree(child);
      all_constant = all_constant && nodes_[child].op == OpCode::Const;
    }
    Node& m = nodes_[i];  // (no reallocation happens while folding)
    if (all_constant) {
      const double a = nodes_[m.a].value;
      const double b = m.b >= 0 ? nodes_[m.b].value : 0.0;
      const double c = m.c >= 0 ? nodes_[m.c].value : 0.0;
      m.value = fold(m.op, a, b, c);
      m.op = OpCode::Const;
      m.a = m.b = m.c = -1;
      return;
    }
    if (m.op == OpCode::Pow && nodes_[m.b].op == OpCode::Const) {
      const double e = nodes_[m.b].value;
      if (e == 2.0) {
        m.op = OpCode::Square;
      } else if (e == 1.0) {
        nodes_[i] = nodes_[m.a];
        return;
      } else {
        m.op = OpCode::PowConst;
        m.value = e;
      }
      m.b = -1;
    }
  }

  // Emits `i`; returns the stack depth it needs.
  int emit(int i) {
    const Node& n = nodes_[i];
    switch (n.op) {
      case OpCode::Const:
        push(OpCode::Const, constant(n.value));
        return 1;
      case OpCode::Time:
        push(OpCode::Time, 0);
        return 1;
      case OpCode::State:
      case OpCode::StateRate:
      case OpCode::Algebraic:
        push(n.op, n.index);
        return 1;
      default:
        break;
    }
    int depth = 0, below = 0;
    for (int child : {n.a, n.b, n.c}) {
      if (child < 0) continue;
      depth = std::max(depth, below + emit(child));
      ++below;
    }
    push(n.op, n.op == OpCode::PowConst ? constant(n.value) : 0);
    return depth;
  }

 private:
  int constant(double v) {
    for (size_t k = 0; k < program_.constants.size(); ++k) {
      if (std::memcmp(&program_.constants[k], &v, sizeof v) == 0) return static_cast<int>(k);
    }
    program_.constants.push_back(v);
    return static_cast<int>(program_.constants.size()) - 1;
  }
  void push(OpCode op, int arg) { program_.code.push_back({op, arg}); }

  std::vector<Node>& nodes_;
  Program& program_;
};

CompiledExpression finish(std::vector<Node>& nodes, int root, std::string_view text,
                          CompiledExpression out) {
  out.program.text = std::string(text);
  if (root < 0 || !out.issues.empty()) return out;
  Emitter emitter(nodes, out.program);
  emitter.fold_tree(root);
  const int depth = emitter.emit(root);
  out.program.stack_depth = depth;
  if (depth > kMaxStackDepth) {
    out.issues.push_back({0, "expression needs " + std::to_string(depth) +
                                 " stack entries (limit " + std::to_string(kMaxStackDepth) +
                                 "); expected a less deeply nested expression"});
    out.program.code.clear();
  }
  return out;
}

}  // namespace

bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  if (!std::isalpha(static_cast<unsigned char>(name[0])) && name[0] != '_') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_reserved_name(std::string_view name) {
  return name == "t" || name == "pi" || find_function(name) != nullptr;
}

int find_equals(std::string_view text) {
  int found = -1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const bool joined_before = i > 0 && (text[i - 1] == '<' || text[i - 1] == '>' ||
                                         text[i - 1] == '!' || text[i - 1] == '=');
    const bool joined_after = i + 1 < text.size() && text[i + 1] == '=';
    if (joined_before || joined_after) continue;
    if (found >= 0) return -2;
    found = static_cast<int>(i);
  }
  return found;
}

CompiledExpression compile_expression(std::string_view text, const SymbolTable& symbols) {
  CompiledExpression out;
  std::vector<Node> nodes;
  Parser parser(text, symbols, nodes, out.issues, 0);
  const int root = parser.parse_all();
  return finish(nodes, root, text, std::move(out));
}

CompiledExpression compile_residual(std::string_view text, int equals, const SymbolTable& symbols) {
  CompiledExpression out;
  std::vector<Node> nodes;
  const auto eq = static_cast<size_t>(equals);
  Parser left(text.substr(0, eq), symbols, nodes, out.issues, 0);
  const int l = left.parse_all();
  Parser right(text.substr(eq + 1), symbols, nodes, out.issues, equals + 1);
  const int r = right.parse_all();
  int root = -1;
  if (l >= 0 && r >= 0) {
    Node n;
    n.op = OpCode::Sub;
    n.a = l;
    n.b = r;
    n.offset = equals;
    nodes.push_back(n);
    root = static_cast<int>(nodes.size()) - 1;
  }
  return finish(nodes, root, text, std::move(out));
}

}  // namespace saltus::model
