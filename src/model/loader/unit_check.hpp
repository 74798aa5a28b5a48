// The unit check of a model file (docs/MODEL_FORMAT.md "Units"): every `unit` and `time_unit`
// string is parsed (lang/units.hpp), and the expressions are parsed once more into a graph of
// their own where the parameters are symbols (the model's graph folds them into numbers), so
// that each node's dimension follows from the declared units (lang/dimension_inference.hpp).
// Checked: flows (the right side in the state's unit per time unit), residuals and constraints
// (both sides), resets and Zeno resets (the state's unit), guard values, `when` and `terminate`
// conditions, [let] names and sections (consistent within), initial values, parameter values and
// outputs with a unit (a contact quantity read there has the dimension its contact gives it:
// a normal force energy per gap, a tangential one energy per tangent, rates per time unit); in a
// mechanical model the energies (one dimension), the generalised forces (energy per
// coordinate), velocity constraints, gaps and tangents. A Hamiltonian model's
// unit strings are parsed, its expressions are not checked. An expression that does not parse
// was reported by its own reader and is skipped here.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model_reader.hpp"
#include "saltus/lang/dimension_inference.hpp"
#include "saltus/lang/units.hpp"

namespace saltus::model::loader {

using lang::NodeDimension;

// One check of one file: ModelReader::load runs it after the sections are read (a friend of the
// reader: it reads its names and reports through it).
class UnitCheck {
 public:
  UnitCheck(ModelReader& r, const toml::table& doc) : r_(r), doc_(doc) {}
  void run();

 private:
  struct Declared {
    NodeDimension dim;
    std::string unit;  // as written, for messages
  };
  // The `unit` of a table entry (nullptr: none); a string that is not a unit is reported.
  Declared declared(const toml::node* unit, const std::string& what);
  void read_declarations();
  std::unique_ptr<lang::DimensionInference> inference(const std::vector<Declared>* algebraic);
  // Parses `text` (at `offset` of the string `n`); nullopt when it does not parse.
  std::optional<lang::NodeId> parse(std::string_view text, const lang::SymbolTable& s);
  // The dimension of `node`; its first conflict not reported before is reported, as
  // "<what>: '<text>': <conflict>", and then the dimension is unknown.
  NodeDimension dimension(lang::NodeId node, const toml::node& n, const std::string& what);
  // An expression string `n` checked within; its dimension (unknown when it does not parse).
  NodeDimension expression(const toml::node& n, const std::string& what,
                           const lang::SymbolTable& s);
  // The dimension found against the one expected: "<what>: '<text>': <found_as> has dimension
  // R, <expected_as> E".
  void compare(const NodeDimension& found, const NodeDimension& expected, const toml::node& n,
               const std::string& what, const std::string& found_as, const std::string& expected_as,
               const std::string& note = "");
  std::string state_note(int i) const;
  // "x' = rhs" (rate) or "x = rhs" entries of an array, each rhs against the state's dimension
  // (per time unit for a rate).
  void assignments(const toml::node* list, const std::string& what, const lang::SymbolTable& s,
                   bool rate);
  // "lhs = rhs" or bare-expression entries: both sides of one dimension.
  void equations(const toml::node* list, const std::string& what, const lang::SymbolTable& s);
  void check_parameters();
  void check_initial_values();
  void check_lets();
  void check_modes();
  void check_guard(const toml::table& g, const std::string& where, const lang::SymbolTable& s);
  void check_mechanics();
  void check_outputs_and_sections();

  ModelReader& r_;
  const toml::table& doc_;
  lang::ExpressionGraph graph_;
  lang::SymbolTable symbols_;
  std::unique_ptr<lang::DimensionInference> infer_;
  std::set<lang::NodeId> reported_;
  bool any_unit_ = false;
  Declared time_{NodeDimension::known(lang::Dimension::base(2)), "s"};
  std::vector<Declared> parameters_;  // in [parameters] order: Parameter leaf i
  std::vector<std::string> parameter_names_;
  std::map<std::string, Declared> named_;  // states, discrete variables, coordinates
  std::map<std::string, std::vector<Declared>> algebraic_;  // per mode
  std::map<std::string, std::vector<std::string>> algebraic_names_;
  std::map<std::string, Declared> output_units_;
  const std::vector<std::string>* leaf_algebraic_ = nullptr;
  // A mechanical model's energy and its contacts' gap and tangent dimensions, in file order
  // (for the contact quantities of [outputs]).
  NodeDimension energy_;
  struct ContactDimensions {
    std::string name;
    NodeDimension gap, tangent;
    bool has_tangent = false;
  };
  std::vector<ContactDimensions> contacts_;
};

}  // namespace saltus::model::loader
