// Sliding bifurcations of periodic orbits (issue 46): a grazing of a switching surface of a flow
// written with sign() (docs/MODEL_FORMAT.md "Switching flows") named by how the orbit's sequence
// of events per period changes across it. The loader's guards say what each event is: "cross:h"
// (the orbit crosses the surface h = 0), "slide:h" (it starts sliding on it) and "leave:h>0",
// "leave:h<0" (it leaves it). Across the bifurcation one contiguous block of that cyclic word
// changes (di Bernardo, Kowalczyk and Nordmark's four cases, for orbits that meet the boundary
// of the sliding region):
//  - grazing-sliding: a slide and its leave appear where the orbit had no event (an arc that
//    grazed the surface now lands on it and slides);
//  - crossing-sliding: a crossing becomes a slide and its leave, or a crossing appears right
//    before a slide (the crossing point left the sliding region: the orbit crosses, flies a
//    moment on the other side and lands on the sliding region);
//  - switching-sliding: a crossing appears right after a leave and before no slide (the orbit
//    leaving the sliding region now crosses the surface at once);
//  - adding-sliding: a second slide and leave appear right after a leave (a sliding segment
//    splits in two).
// The same change read backwards is the same bifurcation. Grazing-sliding and crossing-sliding
// are checked on models against their closed forms (tests/apps/cli_switching_test.py); the
// other two are named from the words alone. Any other change (a pair of
// crossings: a grazing of a crossing region; an impact appearing) is no sliding bifurcation.
#pragma once

#include <string>
#include <vector>

namespace saltus::analysis {

enum class SlidingKind { None, GrazingSliding, CrossingSliding, SwitchingSliding, AddingSliding };
const char* to_string(SlidingKind kind);  // "none", "grazing-sliding", ...

struct SequenceChange {
  SlidingKind kind = SlidingKind::None;
  std::string surface;               // the switching function h of the events that changed
  std::vector<std::string> removed;  // the block of `before` that changed (in its order)
  std::vector<std::string> added;    // what replaced it in `after`
  std::string description;           // e.g. "[] -> [slide:h, leave:h<0]" and the kind
};

// The smallest contiguous change (over the rotations of both cyclic words) taking `before` to
// `after`, and its kind. Equal words: kind None, empty blocks.
SequenceChange classify_sequence_change(const std::vector<std::string>& before,
                                        const std::vector<std::string>& after);

}  // namespace saltus::analysis
