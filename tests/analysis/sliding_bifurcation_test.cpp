// The sliding bifurcations' names from the change of an orbit's events per period
// (sliding_bifurcation.hpp), on the words the loader's guards give: every kind, read forwards
// and backwards, in every rotation of the cyclic word, beside events of another surface.
#include "saltus/analysis/sliding_bifurcation.hpp"

#include <gtest/gtest.h>

#include <random>

namespace saltus::analysis {
namespace {

using Word = std::vector<std::string>;

Word rotate(const Word& w, size_t r) {
  Word out(w.begin() + static_cast<long>(r % w.size()), w.end());
  out.insert(out.end(), w.begin(), w.begin() + static_cast<long>(r % w.size()));
  return out;
}

struct Case {
  Word before, after;
  SlidingKind kind;
};

// h = x - 1 is the surface that changes; g = v the other (events on it never change).
std::vector<Case> cases() {
  return {
      // An arc that grazed h = 0 lands on the sliding region: a slide and its leave appear.
      {{"cross:v", "cross:v"},
       {"cross:v", "slide:x - 1", "leave:x - 1<0", "cross:v"},
       SlidingKind::GrazingSliding},
      {{}, {"slide:x - 1", "leave:x - 1<0"}, SlidingKind::GrazingSliding},
      // The upward crossing of h enters the sliding region: slides, then leaves upward.
      {{"cross:x - 1", "cross:x - 1"},
       {"slide:x - 1", "leave:x - 1>0", "cross:x - 1"},
       SlidingKind::CrossingSliding},
      // The crossing point left the sliding region: the orbit crosses, flies, lands, slides.
      {{"slide:x - 1", "leave:x - 1<0"},
       {"cross:x - 1", "slide:x - 1", "leave:x - 1<0"},
       SlidingKind::CrossingSliding},
      // Leaving the sliding region, the orbit now crosses h at once.
      {{"slide:x - 1", "leave:x - 1>0", "cross:v"},
       {"slide:x - 1", "leave:x - 1>0", "cross:x - 1", "cross:v"},
       SlidingKind::SwitchingSliding},
      // A second sliding segment right after the first one's exit.
      {{"slide:x - 1", "leave:x - 1<0", "cross:v"},
       {"slide:x - 1", "leave:x - 1<0", "slide:x - 1", "leave:x - 1<0", "cross:v"},
       SlidingKind::AddingSliding},
      // Not sliding bifurcations: a pair of crossings (a grazing of the crossing region), an
      // impact appearing, a slide on another surface than the crossing it replaces.
      {{"cross:v"}, {"cross:v", "cross:x - 1", "cross:x - 1"}, SlidingKind::None},
      {{"cross:v"}, {"cross:v", "impact:floor"}, SlidingKind::None},
      {{"cross:v", "cross:v"}, {"slide:x - 1", "leave:x - 1<0", "cross:v"}, SlidingKind::None},
  };
}

TEST(SlidingBifurcation, EveryKindForwardsBackwardsAndInEveryRotation) {
  int checked = 0;
  for (const Case& c : cases()) {
    for (size_t r = 0; r < std::max<size_t>(c.after.size(), 1); ++r) {
      for (size_t s = 0; s < std::max<size_t>(c.before.size(), 1); ++s) {
        const Word before = c.before.empty() ? c.before : rotate(c.before, s);
        const Word after = c.after.empty() ? c.after : rotate(c.after, r);
        const SequenceChange forwards = classify_sequence_change(before, after);
        const SequenceChange backwards = classify_sequence_change(after, before);
        EXPECT_EQ(forwards.kind, c.kind) << forwards.description;
        EXPECT_EQ(backwards.kind, c.kind) << backwards.description;
        if (c.kind != SlidingKind::None) {
          EXPECT_EQ(forwards.surface, "x - 1") << forwards.description;
          EXPECT_EQ(forwards.removed, backwards.added);
          EXPECT_NE(forwards.description.find(to_string(c.kind)), std::string::npos);
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 40);
}

TEST(SlidingBifurcation, EqualWordsAreNoChange) {
  const Word w = {"slide:h", "leave:h<0"};
  const SequenceChange same = classify_sequence_change(w, w);
  EXPECT_EQ(same.kind, SlidingKind::None);
  EXPECT_TRUE(same.removed.empty() && same.added.empty());
}

}  // namespace
}  // namespace saltus::analysis
