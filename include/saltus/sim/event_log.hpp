// The discrete part of a hybrid trajectory: one record per jump, in hybrid time (t, j).
//
// States are stored flat (no per-event allocation once capacity is reserved). A record's
// guard is the firing guard's id in mode_before, or kZenoHandoverGuard for the jump to the
// post-Zeno mode at the predicted accumulation time, or below it for a record that a layer above
// sim adds when it joins sim's runs into one result (EventRecord::kind names such a record; sim
// stores, copies and prints it and knows nothing more of it). record_kind_name() names the
// records that are no guard's.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "saltus/core/types.hpp"

namespace saltus {

inline constexpr GuardId kZenoHandoverGuard = -1;

// Mode ids below kNoMode are a layer's own: samples and records that a layer above sim computed
// itself, by no mode's flow. SimulationResult::layer_mode_names names them, layer_mode(k) the k-th.
inline constexpr ModeId layer_mode(int k) {
  return kNoMode - 1 - k;
}

struct EventRecord {
  double t = 0.0;
  long j = 0;  // jump count after this event (first event: j = 1)
  ModeId mode_before = kNoMode;
  ModeId mode_after = kNoMode;
  GuardId guard = kZenoHandoverGuard;
  bool retrigger = false;    // fired again at the reset instant (it never left the surface)
  bool chained = false;      // fired at the same instant as the previous record
  bool observation = false;  // an observer guard's crossing: no reset, j unchanged
  int nx_before = 0, nx_after = 0, nz_before = 0, nz_after = 0;
  int n_outputs = 0;  // Reset::outputs values stored with the event (names: the guard's reset)
  long offset = 0;    // into EventLog's flat state storage
  // A layer's record (guard below kZenoHandoverGuard): the name of its kind, a string literal of
  // that layer's; nullptr for the records sim makes.
  const char* kind = nullptr;
};

// "zeno-handover", or a layer's record's kind, for the records that are no guard's; nullptr for a
// guard's record (its name is the system's).
inline const char* record_kind_name(const EventRecord& record) {
  if (record.guard == kZenoHandoverGuard) return "zeno-handover";
  if (record.guard < kZenoHandoverGuard) return record.kind != nullptr ? record.kind : "layer";
  return nullptr;
}

class EventLog {
 public:
  void clear() {
    records_.clear();
    states_.clear();
    notes_.clear();
  }
  void reserve(long events, int max_nx, int max_nz, int max_outputs = 0) {
    records_.reserve(events);
    states_.reserve(events * (2 * (max_nx + max_nz) + max_outputs));
  }
  void add(EventRecord r, ConstVectorRef x_before, ConstVectorRef z_before, ConstVectorRef x_after,
           ConstVectorRef z_after, ConstVectorRef outputs = Vector()) {
    r.offset = static_cast<long>(states_.size());
    r.nx_before = static_cast<int>(x_before.size());
    r.nz_before = static_cast<int>(z_before.size());
    r.nx_after = static_cast<int>(x_after.size());
    r.nz_after = static_cast<int>(z_after.size());
    r.n_outputs = static_cast<int>(outputs.size());
    // One resize and plain copies: five range inserts cost ~4 % of a ball impact (callgrind).
    states_.resize(states_.size() + x_before.size() + z_before.size() + x_after.size() +
                   z_after.size() + outputs.size());
    double* out = states_.data() + r.offset;
    for (const ConstVectorRef* part : {&x_before, &z_before, &x_after, &z_after, &outputs}) {
      out = std::copy_n(part->data(), part->size(), out);
    }
    records_.push_back(r);
  }

  // A text kept with record i (a bridge row's reason and length); "" when it has none.
  void set_note(long i, std::string note) {
    if (notes_.size() <= static_cast<size_t>(i)) notes_.resize(static_cast<size_t>(i) + 1);
    notes_[static_cast<size_t>(i)] = std::move(note);
  }
  const std::string& note(long i) const {
    static const std::string none;
    return static_cast<size_t>(i) < notes_.size() ? notes_[static_cast<size_t>(i)] : none;
  }
  bool has_notes() const { return !notes_.empty(); }

  long size() const { return static_cast<long>(records_.size()); }
  bool empty() const { return records_.empty(); }
  const EventRecord& operator[](long i) const { return records_[i]; }
  const std::vector<EventRecord>& records() const { return records_; }

  Eigen::Map<const Vector> x_before(long i) const { return view(i, 0, records_[i].nx_before); }
  Eigen::Map<const Vector> z_before(long i) const {
    return view(i, records_[i].nx_before, records_[i].nz_before);
  }
  Eigen::Map<const Vector> x_after(long i) const {
    const EventRecord& r = records_[i];
    return view(i, r.nx_before + r.nz_before, r.nx_after);
  }
  Eigen::Map<const Vector> z_after(long i) const {
    const EventRecord& r = records_[i];
    return view(i, r.nx_before + r.nz_before + r.nx_after, r.nz_after);
  }
  // The reset's outputs (Reset::output_names of the firing guard), empty if it has none.
  Eigen::Map<const Vector> outputs(long i) const {
    const EventRecord& r = records_[i];
    return view(i, r.nx_before + r.nz_before + r.nx_after + r.nz_after, r.n_outputs);
  }

 private:
  Eigen::Map<const Vector> view(long i, long from, long n) const {
    return Eigen::Map<const Vector>(states_.data() + records_[i].offset + from, n);
  }
  std::vector<EventRecord> records_;
  std::vector<double> states_;
  std::vector<std::string> notes_;  // empty unless a record has a note
};

}  // namespace saltus
