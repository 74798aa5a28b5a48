// Recursive-descent parser that builds its nodes directly in an ExpressionGraph (folded and shared
// as they are made). (About 550 lines: the grammar's levels, && and || among them, the function
// table, calls of a name and the error messages with their columns read best in one file.)
// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include "saltus/lang/expression_compiler.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <sstream>

namespace saltus::lang {
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

std::string describe(std::string_view text, size_t pos) {
  if (pos >= text.size()) return "the end of the expression";
  std::string s = "'";
  s += text[pos];
  return s + "'";
}

class Parser {
 public:
  Parser(std::string_view text, const SymbolTable& symbols, ExpressionGraph& graph,
         std::vector<ExpressionIssue>& issues, int base)
      : text_(text), symbols_(symbols), graph_(graph), issues_(issues), base_(base) {}

  // Parses the whole text; returns the root node or -1.
  int parse_all() {
    const int root = logical_or();
    if (failed_) return -1;
    skip_space();
    if (pos_ < text_.size()) {
      error(pos_, "unexpected " + describe(text_, pos_) +
                      "; expected an operator (+ - * / ^ < <= > >= == != && ||) or the end");
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
  // A stand-in for a name or call already reported as wrong (parsing goes on to find more).
  int placeholder() { return graph_.constant(0.0); }
  int binary(OpCode op, int a, int b) {
    if (a < 0 || b < 0) return -1;
    return graph_.make(op, a, b);
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

  // c1 || c2 is max(c1, c2) and c1 && c2 the product c1*c2 of conditions (values 0 or 1), the
  // forms a guard's `when` reads; && binds tighter than ||, both looser than comparisons.
  int logical_or() {
    int left = logical_and();
    while (!failed_) {
      skip_space();
      const size_t at = pos_;
      if (!accept("||")) break;
      left = logical(OpCode::Max, left, logical_and(), at, "||");
    }
    return failed_ ? -1 : left;
  }

  int logical_and() {
    int left = comparison();
    while (!failed_) {
      skip_space();
      const size_t at = pos_;
      if (!accept("&&")) break;
      left = logical(OpCode::Mul, left, comparison(), at, "&&");
    }
    return failed_ ? -1 : left;
  }

  // An operand of && or || must be a condition: a comparison, a constant 0 or 1 (a comparison
  // of parameters, folded), or && and || of conditions.
  bool is_condition_operand(int id) const {
    const ExpressionNode& n = graph_.node(id);
    return is_comparison(n.op) || n.op == OpCode::Mul || n.op == OpCode::Max ||
           n.op == OpCode::Min || (n.op == OpCode::Const && (n.value == 0.0 || n.value == 1.0));
  }

  int logical(OpCode op, int a, int b, size_t at, const char* token) {
    if (a < 0 || b < 0 || failed_) return -1;
    if (!is_condition_operand(a) || !is_condition_operand(b)) {
      error(at, std::string("the operands of ") + token +
                    " must be conditions (comparisons such as 'x <= 0'); expected a comparison " +
                    "on each side");
      return -1;
    }
    return graph_.make(op, a, b);
  }

  int comparison() {
    int left = sum();
    if (failed_) return -1;
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
    return binary(op, left, right);
  }

  int sum() {
    int left = product();
    while (!failed_) {
      if (accept("+")) {
        left = binary(OpCode::Add, left, product());
      } else if (accept("-")) {
        left = binary(OpCode::Sub, left, product());
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
      if (text_.substr(pos_, 2) == "**") break;  // power, handled below unary
      if (accept("*")) {
        left = binary(OpCode::Mul, left, unary());
      } else if (accept("/")) {
        left = binary(OpCode::Div, left, unary());
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
      result = operand < 0 ? -1 : graph_.make(OpCode::Neg, operand);
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
    if (accept("^") || accept("**")) {
      const int exponent = unary();  // right-associative; allows 2^-1
      return binary(OpCode::Pow, base, exponent);
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
    return graph_.constant(std::strtod(literal.c_str(), nullptr));
  }

  int call(const FunctionInfo& f, std::string_view name, size_t at) {
    std::vector<int> args;
    std::vector<size_t> arg_offsets;
    skip_space();
    if (!accept(")")) {
      while (true) {
        skip_space();
        arg_offsets.push_back(pos_);
        const int arg = logical_or();
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
    if (*f.name == '\0') return placeholder();  // unknown function: already reported
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
      return placeholder();
    }
    if (f.op == OpCode::Min || f.op == OpCode::Max) {
      int acc = args[0];
      for (int i = 1; i < n_args; ++i) acc = binary(f.op, acc, args[i]);
      return acc;
    }
    return graph_.make(f.op, args[0], n_args > 1 ? args[1] : kNoNode,
                       n_args > 2 ? args[2] : kNoNode);
  }

  // f(a) of a function of a name (SymbolTable::name_functions), after its '('.
  int name_call(const NameFunction& fn, std::string_view f) {
    skip_space();
    const size_t at = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    const std::string_view arg = text_.substr(at, pos_ - at);
    if (!is_identifier(arg)) {
      pos_ = at;
      error(at, "unexpected " + describe(text_, at) + " in the argument of '" + std::string(f) +
                    "'; expected the name of a " + fn.what + ", e.g. " + std::string(f) + "(" +
                    (fn.values.empty() ? fn.what : fn.values.begin()->first) + ")");
      return -1;
    }
    if (!accept(")")) {
      skip_space();
      error(pos_, "unexpected " + describe(text_, pos_) + " in the argument of '" + std::string(f) +
                      "'; expected ')' after the name of a " + fn.what + " (" + std::string(f) +
                      " takes one)");
      return -1;
    }
    if (const auto it = fn.values.find(arg); it != fn.values.end()) return it->second;
    const std::string call = std::string(f) + "(" + std::string(arg) + ")";
    std::string message;
    if (const auto r = fn.refused.find(arg); r != fn.refused.end()) {
      message = call + ": " + r->second;
    } else if (fn.values.empty() && fn.refused.empty()) {
      message = call + ": " + fn.none;
    } else {
      // Not a name of this kind at all: every name it has, taken or refused, in order.
      std::vector<std::string> names;
      for (const auto& entry : fn.values) names.push_back(entry.first);
      for (const auto& entry : fn.refused) names.push_back(entry.first);
      std::sort(names.begin(), names.end());
      message =
          "unknown " + fn.what + " '" + std::string(arg) + "' in " + call + "; expected one of: ";
      for (size_t k = 0; k < names.size(); ++k) message += (k == 0 ? "" : ", ") + names[k];
    }
    issues_.push_back({base_ + static_cast<int>(at), message});
    unknown_ = true;
    return placeholder();
  }

  int name_node(std::string_view name, size_t at) {
    skip_space();
    const bool prime = pos_ < text_.size() && text_[pos_] == '\'';
    if (prime) ++pos_;
    const auto find = [&](const std::vector<std::string>& list) {
      const auto it = std::find(list.begin(), list.end(), name);
      return it == list.end() ? -1 : static_cast<int>(it - list.begin());
    };
    if (prime) {
      const int i = find(symbols_.states);
      if (i >= 0 && static_cast<size_t>(i) < symbols_.velocity_of.size() &&
          symbols_.velocity_of[static_cast<size_t>(i)] >= 0) {
        return graph_.state(symbols_.velocity_of[static_cast<size_t>(i)]);
      }
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
      return graph_.state_rate(std::max(i, 0));
    }
    if (name == "t") {
      if (!symbols_.allow_time) {
        issues_.push_back({base_ + static_cast<int>(at), "t is not allowed here"});
        unknown_ = true;
      }
      return graph_.time();
    }
    if (const auto it = symbols_.constants.find(name); it != symbols_.constants.end()) {
      return graph_.constant(it->second);
    }
    if (const int i = find(symbols_.parameters); i >= 0) return graph_.parameter(i);
    if (symbols_.definitions_graph == &graph_) {
      if (const auto it = symbols_.definitions.find(name); it != symbols_.definitions.end()) {
        return it->second;
      }
    }
    if (const int i = find(symbols_.states); i >= 0) return graph_.state(i);
    if (const int i = find(symbols_.algebraic); i >= 0 && symbols_.allow_algebraic) {
      return graph_.algebraic(i);
    }
    if (name == "pi") return graph_.constant(std::numbers::pi);
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
    return placeholder();
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
        if (const auto it = symbols_.name_functions.find(name);
            it != symbols_.name_functions.end()) {
          ++pos_;
          return name_call(it->second, name);
        }
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
        if (f == nullptr && r >= 0) return placeholder();
        return r;
      }
      return name_node(name, at);
    }
    if (ch == '(') {
      ++pos_;
      if (!enter(at)) return -1;
      const int inner = logical_or();
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
  ExpressionGraph& graph_;
  std::vector<ExpressionIssue>& issues_;
  int base_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;

 public:
  bool unknown_ = false;
  bool arity_error_ = false;
};

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

ParsedExpression parse_expression(std::string_view text, const SymbolTable& symbols,
                                  ExpressionGraph& graph) {
  ParsedExpression out;
  Parser parser(text, symbols, graph, out.issues, 0);
  const int root = parser.parse_all();
  if (root >= 0 && out.issues.empty()) out.node = root;
  return out;
}

ParsedExpression parse_residual(std::string_view text, int equals, const SymbolTable& symbols,
                                ExpressionGraph& graph) {
  ParsedExpression out;
  const auto eq = static_cast<size_t>(equals);
  Parser left(text.substr(0, eq), symbols, graph, out.issues, 0);
  const int l = left.parse_all();
  Parser right(text.substr(eq + 1), symbols, graph, out.issues, equals + 1);
  const int r = right.parse_all();
  if (l >= 0 && r >= 0 && out.issues.empty()) out.node = graph.make(OpCode::Sub, l, r);
  return out;
}

namespace {
CompiledExpression compile_alone(const ExpressionGraph& graph, ParsedExpression parsed) {
  CompiledExpression out;
  out.issues = std::move(parsed.issues);
  if (!out.ok()) return out;
  out.is_constant = graph.is_constant(parsed.node);
  out.constant_value = graph.node(parsed.node).value;
  out.is_condition = is_comparison(graph.node(parsed.node).op);
  out.program = compile_tape(graph, {{parsed.node, 0}});
  return out;
}
}  // namespace

CompiledExpression compile_expression(std::string_view text, const SymbolTable& symbols) {
  ExpressionGraph graph;
  graph.share_parameter_values(symbols.parameter_values);
  ParsedExpression parsed = parse_expression(text, symbols, graph);
  return compile_alone(graph, std::move(parsed));
}

CompiledExpression compile_residual(std::string_view text, int equals, const SymbolTable& symbols) {
  ExpressionGraph graph;
  graph.share_parameter_values(symbols.parameter_values);
  ParsedExpression parsed = parse_residual(text, equals, symbols, graph);
  return compile_alone(graph, std::move(parsed));
}

}  // namespace saltus::lang
