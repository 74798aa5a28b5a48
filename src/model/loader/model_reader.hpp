// The reader state shared by the model-file loader's parts: one ModelReader per file, its
// member functions defined by section in this folder:
//   model_reader.cpp      the TOML front end (syntax pre-check, section order), diagnostics with
//                         file/line/column, generic value readers (numbers, names, quantities,
//                         [parameters]); the entry points of model_loader.hpp
//   overrides.cpp         --set name=value applied to the parsed document
//   mode_reader.cpp       [states], [modes], flows, residuals, constraints, Zeno hand-overs
//   shared_flow.cpp       flow = "@other": a mode with another mode's flow
//   guard_reader.cpp      guards: value, direction, jump set (when), targets, resets,
//                         terminate and terminate_after
//   hybrid_sets.cpp       a mode's flow_set and jump_set (HyEQ's C and D) lowered to guards
//   discrete_reader.cpp   [discrete]: discrete variables (states of rate 0 set by resets)
//   outputs_reader.cpp    [outputs]: named output columns
//   mechanics_reader.cpp  [coordinates], [mechanics] (via derive_lagrangian)
//   contacts_reader.cpp   [[contacts]] (laws, coefficients, painleve; numbered by name)
//   hamiltonian_reader.cpp  [hamiltonian] (via derive_hamiltonian), its walls and surface
//   options_reader.cpp    [model], [initial], [solver], [output]
//   let_reader.cpp        [let]: named subexpressions
//   parameter_states.cpp  parameters loaded as states (LoadOptions::parameters_as_states) or
//                         kept as run-time inputs (LoadOptions::runtime_parameters)
// The loader never stops at the first problem: each section is read as far as it makes sense,
// every problem becomes a Diagnostic, and only a model without problems is returned. Table keys
// are visited in source order (toml++ tables are sorted maps).
#pragma once
// GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <toml++/toml.h>

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "saltus/lang/expression_compiler.hpp"
#include "saltus/lang/hamiltonian_derivation.hpp"
#include "saltus/model/diagnostic.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model::loader {

using Keyed = std::vector<std::pair<std::string, const toml::node*>>;

// A [[contacts]] entry of a Hamiltonian model: a wall g(q) >= 0 with restitution e.
struct HamiltonianWall {
  std::string name;
  lang::NodeId gap = lang::kNoNode;
  double e = 1.0;
};

std::string type_name(const toml::node& n);               // "a table", "an integer", ...
std::string join(const std::vector<std::string>& names);  // "a, b, c" or "(none)"
std::string short_number(double v);  // as the file would write it ("0.3"), for messages

class ModelReader {
 public:
  ModelReader(std::string_view text, std::string file);

  std::vector<Diagnostic> diagnostics;

  Model load(const std::vector<std::string>& overrides);
  // Parameters to load as states (LoadOptions::parameters_as_states); before load().
  void promote(std::vector<std::string> names);
  // Parameters kept as run-time inputs (LoadOptions::runtime_parameters); before load().
  void keep_at_run_time(std::vector<std::string> names);

 private:
  // ---------------------------------------------------------------- diagnostics (model_reader)
  void add(int line, int column, std::string message);
  void add(const toml::node& n, std::string message);
  // Column of character `offset` of the string value `n` (inside its quotes when it is a
  // one-line string; its first character otherwise).
  std::pair<int, int> string_position(const toml::node& n, int offset) const;
  void add_at(const toml::node& n, int offset, std::string message);

  // ---------------------------------------------------------------- value readers (model_reader)
  // Keys in file order; a value replaced by --set keeps the place of the one it replaced.
  Keyed ordered(const toml::table& t) const;
  void check_keys(const toml::table& t, const std::string& where,
                  const std::vector<std::string>& known);
  const toml::table* table_at(const toml::table& parent, const std::string& key,
                              const std::string& where, bool required);
  std::optional<double> number(const toml::node& n, const std::string& what);
  std::optional<std::string> string(const toml::node& n, const std::string& what);
  bool new_name(const toml::node& n, const std::string& name, const std::string& what);
  std::optional<Quantity> quantity(const std::string& name, const toml::node& n,
                                   const std::string& what, const char* field, bool required);
  void read_parameters(const toml::table& doc);
  // The first of `names` that the value `v` (an expression, or a table holding one) mentions;
  // "" when none.
  static std::string mentioned_in(const toml::node& v, const std::vector<std::string>& names);
  void add_parameter_states();
  // Parameters computed from one loaded as a state, read after it as definitions of it.
  void read_following_parameters();
  // promote_ and the parameters that follow them: what an initial value may not read.
  std::vector<std::string> varying_parameters() const;
  void check_runtime_parameters();
  bool is_parameter_state(int i) const;

  // ---------------------------------------------------------------- overrides
  void apply_overrides(toml::table& doc, const std::vector<std::string>& overrides);
  void override_contact(toml::table& doc, const std::string& name, const toml::node& value);

  // ---------------------------------------------------------------- [let] (let_reader)
  void read_lets(const toml::table& doc);
  // ---------------------------------------------------------------- states and modes
  void read_states(const toml::table& doc);
  // [discrete]: states with rate 0 written only by resets (discrete_reader.cpp).
  void read_discrete(const toml::table& doc);
  bool is_discrete_state(int i) const;
  // An implicit mode's residuals that read the rate of a discrete variable: reported at `n`.
  void check_discrete_rates(const toml::node& n, const std::string& what,
                            const std::vector<lang::NodeId>& residuals);
  // A guard's terminate and terminate_after (guard_reader.cpp).
  void read_termination(const toml::table& g, ModelGuard& guard, const std::string& mode,
                        const std::string& where);
  // [outputs]: named columns of trajectory.csv (outputs_reader.cpp).
  void read_outputs(const toml::table& doc);
  lang::SymbolTable symbols(const std::vector<std::string>& algebraic) const;
  std::optional<lang::NodeId> expression(const toml::node& n, const std::string& what,
                                         const lang::SymbolTable& s);
  const toml::array* array_of_strings(const toml::node& n, const std::string& what);
  // "name = expr" entries (resets); `rate` for "name' = expr" (explicit flows).
  struct Assigned {
    int state = -1;
    int lhs_offset = 0;
    lang::NodeId value = lang::kNoNode;
  };
  std::vector<Assigned> assignments(const toml::node& n, const std::string& what,
                                    const lang::SymbolTable& s, bool rate,
                                    const std::vector<std::string>& algebraic);
  std::vector<lang::NodeId> residuals(const toml::node& n, const std::string& what,
                                      const lang::SymbolTable& s);
  void read_modes(const toml::table& doc);
  int target_mode(const toml::node* n, int self, const std::string& what);
  void read_mode(const toml::table& t, ModelMode& mode);
  const ModelMode* shared_flow(const toml::table& t, const ModelMode& mode);
  void read_guard(const toml::table& g, ModelMode& mode, int self, const lang::SymbolTable& s);
  ModelTarget read_target(const toml::table& t, int self, const std::string& where,
                          const lang::SymbolTable& s, bool reads_when = true);
  // A `when` string: a condition (a comparison, products, min or max of them), else reported.
  std::optional<lang::NodeId> condition(const toml::node& w, const std::string& where,
                                        const lang::SymbolTable& s, const char* key = "when");
  void read_targets(const toml::node& ts, ModelGuard& guard, int self, const std::string& where,
                    const lang::SymbolTable& s);
  // A mode's flow_set and jump_set (HyEQ's C and D), lowered to guards (hybrid_sets.cpp).
  void read_hybrid_sets(const toml::table& t, ModelMode& mode, int self,
                        const lang::SymbolTable& s);

  // ---------------------------------------------------------------- mechanical models
  void read_coordinates(const toml::table& doc, bool canonical = false);
  std::string forbidden_input(lang::NodeId node, bool allow_time) const;
  lang::NodeId mechanics_expression(const toml::table& t, const char* key,
                                    const std::string& where);
  lang::NodeId geometry_expression(const toml::table& t, const char* key, const std::string& where);
  void read_mechanics(const toml::table& doc);
  // [[bodies]]: spatial rigid bodies' energies added to T and V (bodies_reader.cpp); false
  // after reporting a problem.
  bool read_bodies(const toml::table& doc, lang::NodeId& T, lang::NodeId& V,
                   std::vector<lang::NodeId>& Q,
                   const std::optional<std::array<lang::NodeId, 3>>& gravity);
  // Three expressions at `key`; `geometry`: of the coordinates and parameters only (else t and
  // the velocities too: a force).
  std::optional<std::array<lang::NodeId, 3>> body_vector(const toml::table& t, const char* key,
                                                         const std::string& where,
                                                         bool geometry = true);
  // A body's inertia tensor about its centre of mass in body axes, from principal moments or the
  // whole tensor (body_inertia.cpp); nullopt after reporting a problem.
  using Inertia = std::array<std::array<lang::NodeId, 3>, 3>;
  std::optional<Inertia> body_inertia(const toml::table& t, const std::string& where);
  // A body's orientation as a quaternion of four coordinates (body_quaternion.cpp): its
  // rotation (body axes to world, of q / |q|), its angular velocity in body axes and the rate of
  // log |q|; nullopt after reporting a problem.
  struct BodyQuaternion {
    std::array<std::array<lang::NodeId, 3>, 3> rotation;
    std::array<lang::NodeId, 3> spin;
    lang::NodeId log_rate;
  };
  std::optional<BodyQuaternion> body_quaternion(const toml::table& t, const std::string& where);
  // A [[bodies]] body's frame, kept for the contacts on its points (body_point_gap.cpp) and its
  // children: its centre of mass c and rotation R (body axes to world) as expressions of the
  // coordinates.
  struct BodyFrame {
    std::string name;
    std::array<lang::NodeId, 3> c;
    std::array<std::array<lang::NodeId, 3>, 3> R;
    std::array<lang::NodeId, 3> spin;  // angular velocity in body axes (a hinged child reads it)
  };
  std::vector<BodyFrame> body_frames_;
  // A body turned by an angle about an axis of its parent (body_hinge.cpp): a revolute joint.
  // `parent` points into body_frames_ (valid until the next body is added); `axis` is unit.
  struct Hinge {
    const BodyFrame* parent = nullptr;
    std::array<lang::NodeId, 3> axis;
    lang::NodeId angle;
  };
  std::optional<Hinge> body_hinge(const toml::table& t, const std::string& where);
  // A contact's gap from `point` on a [[bodies]] body and `plane` (body_point_gap.cpp);
  // kNoNode after reporting a problem.
  lang::NodeId body_point_gap(const toml::table& t, const std::string& body,
                              const std::string& where, ModelContact::BodyPoint& shape);
  // A frictional body-point contact's slip velocities along two tangent directions of its plane
  // into c.slip, with c.drilling times the spin about its normal unless c.drilling is kNoNode,
  // and with c.rolling its rolling rates into c.roll (body_point_slip.cpp); `shape` as
  // body_point_gap filled it.
  void body_point_slip(const ModelContact::BodyPoint& shape, ModelContact& c);
  void read_velocity_constraints(const toml::node& c);
  void read_contacts(const toml::table& doc);
  void read_contact(const toml::table& t, int index);
  // `drilling = l` or `rolling = mu_r` (key) on a frictional body-point contact: a positive
  // length, its value when loaded; kNoNode after reporting a problem.
  lang::NodeId friction_length(const toml::table& t, const char* key, const std::string& where,
                               bool frictional);
  void read_contact_when_and_relabel(const toml::table& t, ModelContact& c,
                                     const std::string& where);
  std::optional<int> painleve_policy(const toml::node& v, const std::string& what);
  std::optional<std::pair<lang::NodeId, double>> runtime_coefficient(const toml::node& v,
                                                                     const std::string& what);
  void check_contact_keys(const toml::table& t, const std::string& contact, const std::string& law);
  // The line of key `key` of contact `contact`'s table; 0 when absent or given by --set.
  int written_line(const toml::table& t, const std::string& contact, const char* key) const;
  // A problem of key `key` (nullptr: of the table) of a contact, at the key's line or its --set.
  std::shared_ptr<const lang::Tape> stribeck_curve(const toml::node& v, const std::string& where);
  void add_contact_key_problem(const toml::table& t, const std::string& contact, const char* key,
                               const std::string& message);

  // ---------------------------------------------------------------- Hamiltonian models
  void read_hamiltonian(const toml::table& doc);  // hamiltonian_reader.cpp
  lang::NodeId region_hamiltonian(const toml::node& n, const std::string& where);
  bool check_convex(const lang::HamiltonianEquations& eq, const toml::node& at,
                    const std::string& where);
  std::vector<HamiltonianWall> read_hamiltonian_walls(const toml::table& doc);
  ModelGuard wall_guard(const HamiltonianWall& wall, const lang::HamiltonianEquations& eq,
                        int self);

  // ---------------------------------------------------------------- options
  void read_model_section(const toml::table& doc);
  void read_initial(const toml::table& doc);
  void read_solver(const toml::table& doc);
  void read_atol(const toml::node& n);  // options_reader.cpp
  void read_output(const toml::table& doc);
  void read_drawing(const toml::node& drawing);
  void read_sections(const toml::table& doc);  // sections_reader.cpp
  // Flows with sign, abs, min, max, if or comparisons: Filippov's modes (switching_modes.cpp).
  void lower_switches();
  // The jumps of flows integrated as written, watched for chattering (discontinuities.cpp).
  void note_discontinuities();
  void read_section(const toml::table& t);

  std::string_view text_;
  std::string file_;
  std::vector<std::string> lines_;
  Model model_;
  std::shared_ptr<lang::ExpressionGraph> graph_ = std::make_shared<lang::ExpressionGraph>();
  // The parameters read so far (constants_.constants, with allow_time false) for constant
  // expressions such as "2*g": one table grown in place, since copying it per parameter made
  // n chained parameters load in O(n^2).
  lang::SymbolTable constants_;
  std::map<std::string, std::string> names_;
  std::vector<std::string> state_names_;
  std::map<std::string, lang::NodeId, std::less<>> definitions_;  // [let], nodes of graph_
  std::vector<std::string> mode_names_;
  std::set<std::string> sharing_modes_;  // modes with flow = "@other"
  std::vector<int> velocity_of_;         // mechanical models: index of q' for coordinate q
  int dof_ = 0;                          // mechanical and Hamiltonian models: number of coordinates
  bool canonical_ = false;               // Hamiltonian model: the second half of the states is p
  bool initial_mode_chosen_ = false;     // the model chose its initial mode (no [initial] mode)
  std::vector<std::string> promote_;     // LoadOptions::parameters_as_states
  std::vector<Quantity> promoted_;       // those read, in [parameters] order
  // Parameters whose value is an expression of a promoted one (phi = "slope_deg*pi/180"): they
  // follow it as [let]-like definitions (read_following_parameters), in [parameters] order.
  std::vector<std::pair<std::string, const toml::node*>> following_;
  std::vector<std::string> runtime_;  // LoadOptions::runtime_parameters
  // Those read, in [parameters] order (Parameter leaf k is runtime_read_[k]), and their values,
  // shared by the graph and every tape compiled from it.
  std::vector<std::string> runtime_read_;
  std::shared_ptr<std::vector<double>> runtime_values_ = std::make_shared<std::vector<double>>();
  const toml::table* solver_table_ = nullptr;
  bool smooth_switches_ = false;  // [solver] switching = "smooth"
  // The `flow` value of each mode read from [modes] (for the lines of switching problems).
  std::map<int, const toml::node*> flow_nodes_;
  // Where the values replaced by --set stood in the file (toml++ gives new nodes no source).
  std::map<const toml::node*, toml::source_position> replaced_at_;
  // --set contacts.<contact>.<key>=...: the keys set, per contact name, and the law the file
  // gave a contact whose law was set ("newton" when it gave none).
  std::map<std::string, std::set<std::string>> contact_keys_set_;
  std::map<std::string, std::string> contact_file_law_;
  // The unit check (unit_check.hpp) reads the names above and reports through add_at.
  friend class UnitCheck;
};

}  // namespace saltus::model::loader
