// Which keys of a [[contacts]] table each contact law reads, and the check that every key of a
// table is read by its law (issue 34: keys a law ignored were accepted without a word).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model_reader.hpp"

namespace saltus::model::loader {

namespace {
// The coefficient and geometry keys each contact law reads (docs/MODEL_FORMAT.md); every law
// also reads name, body, gap and law. Empty for an unknown law.
const std::vector<std::string>& keys_read_by(const std::string& law) {
  static const std::map<std::string, std::vector<std::string>> kReads = {
      {"newton", {"e", "superelastic", "when", "relabel"}},
      {"naive", {"e", "mu", "mu_s", "stribeck", "tangent", "when", "relabel"}},
      {"chatterjee_ruina", {"e", "mu", "mu_s", "stribeck", "tangent", "e_t", "when", "relabel"}},
      {"routh_newton", {"e", "mu", "mu_s", "stribeck", "tangent", "when", "relabel"}},
      {"routh_poisson", {"e", "mu", "mu_s", "stribeck", "tangent", "when", "relabel"}},
      {"routh_stronge", {"e", "mu", "mu_s", "stribeck", "tangent", "when", "relabel"}},
      {"newton_coulomb",
       {"e", "mu", "mu_s", "stribeck", "tangent", "e_t", "superelastic", "when", "relabel"}},
      {"linear_spring", {"k", "mu", "tangent"}},
      {"kelvin_voigt", {"k", "c", "release", "mu", "tangent"}},
      {"hunt_crossley", {"k", "c", "n", "mu", "tangent"}}};
  static const std::vector<std::string> kNone;
  const auto it = kReads.find(law);
  return it != kReads.end() ? it->second : kNone;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

// Every key of a [[contacts]] table is read by its law: a key no law reads is unknown, and one
// the chosen law ignores (mu with newton, e_t with a routh_* law, c with linear_spring, a
// compliant tangent without mu) is an error at its line naming the key, the law and what the law
// reads. When --set contacts.<c>.law chose another law than the file's, the file's keys that its
// own law reads are left alone (they are for that law); a key given by --set must be read.
void ModelReader::check_contact_keys(const toml::table& t, const std::string& contact,
                                     const std::string& law) {
  static const std::vector<std::string> kCommon = {
      "name", "body",   "gap",       "law",      "point",   "plane",   "axis",
      "rim",  "radius", "ellipsoid", "drilling", "rolling", "painleve"};
  static const std::vector<std::string> kLaws = {
      "newton",        "naive",          "chatterjee_ruina", "routh_newton", "routh_poisson",
      "routh_stronge", "newton_coulomb", "linear_spring",    "kelvin_voigt", "hunt_crossley"};
  const std::vector<std::string>& reads = keys_read_by(law);
  std::vector<std::string> known = kCommon;
  known.insert(known.end(), reads.begin(), reads.end());
  const std::string where = "contact '" + contact + "' (law " + law + ")";
  const auto set_keys = contact_keys_set_.find(contact);
  const auto file_law = contact_file_law_.find(contact);
  const bool compliant = contains(reads, "k");
  for (const auto& [key, node] : ordered(t)) {
    if (contains(kCommon, key)) continue;
    const bool set = set_keys != contact_keys_set_.end() && set_keys->second.count(key) != 0;
    std::vector<std::string> readers;
    for (const std::string& l : kLaws) {
      if (contains(keys_read_by(l), key)) readers.push_back(l);
    }
    std::string message;
    if (contains(reads, key)) {
      if (!(key == "tangent" && compliant && t.get("mu") == nullptr)) continue;
      // A compliant law's tangent carries only its friction force, and mu defaults to 0.
      message = where + " has a tangent but no mu: law " + law +
                " reads the tangent only for its friction force (mu defaults to 0); expected " +
                "mu = <number> beside the tangent, or no tangent";
    } else if (readers.empty()) {
      message = "unknown key '" + key + "' in " + where + "; expected one of " + join(known);
    } else {
      if (!set && file_law != contact_file_law_.end() &&
          contains(keys_read_by(file_law->second), key)) {
        continue;  // written for the file's own law, replaced by --set
      }
      message = where + " does not read '" + key + "' (law " + law + " reads " + join(reads) +
                "; '" + key + "' is read by " + join(readers) + "); expected no '" + key +
                "', or a law that reads it";
    }
    if (set) {
      diagnostics.push_back({"--set", 0, 0, "'contacts." + contact + "." + key + "': " + message});
    } else {
      add(*node, message);
    }
  }
}

int ModelReader::written_line(const toml::table& t, const std::string& contact,
                              const char* key) const {
  const toml::node* v = t.get(key);
  const auto set = contact_keys_set_.find(contact);
  if (v == nullptr || (set != contact_keys_set_.end() && set->second.count(key) != 0)) return 0;
  return static_cast<int>(v->source().begin.line);
}

void ModelReader::add_contact_key_problem(const toml::table& t, const std::string& contact,
                                          const char* key, const std::string& message) {
  const toml::node* v = key != nullptr ? t.get(key) : nullptr;
  if (v == nullptr) {
    add(t, message);
    return;
  }
  const auto set = contact_keys_set_.find(contact);
  if (set != contact_keys_set_.end() && set->second.count(key) != 0) {
    diagnostics.push_back(
        {"--set", 0, 0, "'contacts." + contact + "." + std::string(key) + "': " + message});
    return;
  }
  add(*v, message);
}

}  // namespace saltus::model::loader
