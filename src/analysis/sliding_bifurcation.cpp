#include "saltus/analysis/sliding_bifurcation.hpp"

#include <limits>

namespace saltus::analysis {

const char* to_string(SlidingKind kind) {
  switch (kind) {
    case SlidingKind::None:
      return "none";
    case SlidingKind::GrazingSliding:
      return "grazing-sliding";
    case SlidingKind::CrossingSliding:
      return "crossing-sliding";
    case SlidingKind::SwitchingSliding:
      return "switching-sliding";
    case SlidingKind::AddingSliding:
      return "adding-sliding";
  }
  return "unknown";
}

namespace {

// An event of a switching flow: its kind (cross, slide, leave) and surface; kind "" otherwise.
struct Token {
  std::string kind, surface;
};

Token token(const std::string& guard) {
  for (const char* kind : {"cross", "slide", "leave"}) {
    const std::string prefix = std::string(kind) + ":";
    if (guard.rfind(prefix, 0) != 0) continue;
    std::string surface = guard.substr(prefix.size());
    if (std::string(kind) == "leave" && surface.size() > 2) surface.resize(surface.size() - 2);
    return {kind, surface};
  }
  return {"", ""};
}

std::string text(const std::vector<std::string>& block) {
  std::string out = "[";
  for (size_t i = 0; i < block.size(); ++i) out += (i ? ", " : "") + block[i];
  return out + "]";
}

// `block` is exactly kinds `kinds` on one surface; that surface, or "".
std::string on_one_surface(const std::vector<std::string>& block,
                           std::initializer_list<const char*> kinds) {
  if (block.size() != kinds.size()) return "";
  std::string surface;
  size_t i = 0;
  for (const char* kind : kinds) {
    const Token t = token(block[i++]);
    if (t.kind != kind || (!surface.empty() && t.surface != surface)) return "";
    surface = t.surface;
  }
  return surface;
}

// `shorter` -> `longer`, the events before and after the change in `longer` (cyclically; ""
// where the change is the whole word).
SlidingKind kind_of(const std::vector<std::string>& shorter, const std::vector<std::string>& longer,
                    const std::string& previous, const std::string& next, std::string& surface) {
  const Token before = token(previous), after = token(next);
  if (shorter.empty()) {
    surface = on_one_surface(longer, {"slide", "leave"});
    if (!surface.empty()) {
      // Beside a sliding segment of the same surface (after its leave or before its slide: the
      // same word) the new one is added to it.
      const bool beside = (before.kind == "leave" && before.surface == surface) ||
                          (after.kind == "slide" && after.surface == surface);
      return beside ? SlidingKind::AddingSliding : SlidingKind::GrazingSliding;
    }
    surface = on_one_surface(longer, {"cross"});
    if (!surface.empty() && after.kind == "slide" && after.surface == surface) {
      // The orbit now crosses before it lands on the sliding region (the crossing point left it).
      return SlidingKind::CrossingSliding;
    }
    if (!surface.empty() && before.kind == "leave" && before.surface == surface) {
      return SlidingKind::SwitchingSliding;
    }
  } else if (!on_one_surface(shorter, {"cross"}).empty()) {
    surface = on_one_surface(longer, {"slide", "leave"});
    if (!surface.empty() && surface == token(shorter[0]).surface) {
      return SlidingKind::CrossingSliding;
    }
  }
  surface.clear();
  return SlidingKind::None;
}

std::vector<std::string> rotated(const std::vector<std::string>& w, size_t r) {
  std::vector<std::string> out(w.begin() + static_cast<long>(r), w.end());
  out.insert(out.end(), w.begin(), w.begin() + static_cast<long>(r));
  return out;
}

}  // namespace

SequenceChange classify_sequence_change(const std::vector<std::string>& before,
                                        const std::vector<std::string>& after) {
  SequenceChange best;
  if (before == after) return best;
  const bool grows = after.size() >= before.size();
  const std::vector<std::string>& a = grows ? before : after;  // the shorter word
  const std::vector<std::string>& b = grows ? after : before;
  size_t best_size = std::numeric_limits<size_t>::max();
  std::vector<std::string> best_a, best_b;
  // Every rotation of the longer word against the shorter as written: the change is the middle
  // left between their longest common prefix and suffix. Of the smallest changes (a block
  // inserted into a cyclic word can often be placed in several ways) the first that names a
  // sliding bifurcation is taken.
  for (size_t r = 0; r < std::max<size_t>(b.size(), 1); ++r) {
    const std::vector<std::string> br = b.empty() ? b : rotated(b, r);
    size_t p = 0;
    while (p < a.size() && a[p] == br[p]) ++p;
    size_t q = 0;
    while (q < a.size() - p && a[a.size() - 1 - q] == br[br.size() - 1 - q]) ++q;
    const std::vector<std::string> mid_a(a.begin() + static_cast<long>(p),
                                         a.end() - static_cast<long>(q));
    const std::vector<std::string> mid_b(br.begin() + static_cast<long>(p),
                                         br.end() - static_cast<long>(q));
    const size_t size = mid_a.size() + mid_b.size();
    if (size > best_size || (size == best_size && best.kind != SlidingKind::None)) continue;
    const bool whole = mid_b.size() == br.size();
    const std::string previous = whole ? "" : br[(p + br.size() - 1) % br.size()];
    const std::string next = whole ? "" : br[(p + mid_b.size()) % br.size()];
    std::string surface;
    const SlidingKind kind = kind_of(mid_a, mid_b, previous, next, surface);
    if (size == best_size && kind == SlidingKind::None) continue;
    best_size = size;
    best_a = mid_a;
    best_b = mid_b;
    best.kind = kind;
    best.surface = surface;
  }
  best.removed = grows ? best_a : best_b;
  best.added = grows ? best_b : best_a;
  best.description = text(best.removed) + " -> " + text(best.added) + ": " +
                     (best.kind == SlidingKind::None
                          ? std::string("no sliding bifurcation")
                          : std::string(to_string(best.kind)) + " on " + best.surface + " = 0");
  return best;
}

}  // namespace saltus::analysis
