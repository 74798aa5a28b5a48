#!/usr/bin/env bash
# End-to-end: the built `saltus` binary runs the mechanical model files with every law chosen
# through --set, and the files it writes carry the physics: each rod impact in events.csv has
# impulse_t, impulse_n > 0 and energy_change (never > 0 for the energy-consistent laws), and the
# particle on a linear spring leaves at its impact speed (e = 1) after pi sqrt(m/k).
# Usage: cli_mechanics_test.sh SALTUS_BINARY MODELS_DIR WORK_DIR
set -euo pipefail
saltus=$1 models=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
for law in newton naive chatterjee_ruina routh_newton routh_poisson routh_stronge newton_coulomb; do
  "$saltus" run "$models/bouncing_rod.toml" --set contacts.tip.law=$law --t-end 0.8 \
    --out "$work/rod_$law" >/dev/null
  python3 - "$work/rod_$law/events.csv" "$law" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["guard"] == "impact:tip"]
law = sys.argv[2]
assert rows, f"{law}: no impact in events.csv"
for r in rows:
    assert float(r["impulse_n"]) > 0, (law, r["impulse_n"])
    if law == "newton":
        assert float(r["impulse_t"]) == 0.0, (law, r["impulse_t"])
    if law in ("chatterjee_ruina", "routh_poisson", "routh_stronge", "newton_coulomb"):
        assert float(r["energy_change"]) <= 1e-12, (law, r["energy_change"])
print(f"{law}: {len(rows)} impacts, impulses and energy change in events.csv")
PY
done
for law in linear_spring kelvin_voigt hunt_crossley; do
  "$saltus" run "$models/compliant_particle.toml" --set contacts.surface.law=$law --set g=0 \
    --set h0=1e-4 "--set=y'=-1" --set rtol=1e-12 --set atol=1e-15 --t-end 0.1 \
    --out "$work/particle_$law" >/dev/null
  python3 - "$work/particle_$law/events.csv" "$law" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
law = sys.argv[2]
touch = [r for r in rows if r["guard"] == "touch:surface"]
release = [r for r in rows if r["guard"] == "release:surface"]
assert touch and release, f"{law}: no contact in events.csv"
e = float(release[0]["y'_after"])
duration = float(release[0]["t"]) - float(touch[0]["t"])
assert 0 < e <= 1 + 1e-9, (law, e)
if law == "linear_spring":  # m = 1, k = 1e4, c unused: e = 1, duration pi sqrt(m/k)
    assert abs(e - 1) < 1e-9 and abs(duration - math.pi / 100) < 1e-9, (e, duration)
print(f"{law}: e = {e:.12f}, contact {duration:.12f} s")
PY
done
# Issue 32's bridge: the Frictional Bounce Model at mu = 0.55 stops where its tip's stick turns
# into a Painleve slip (reset-failed, exit 2) with painleve = "stop", and by default reaches t_end
# taking the free motion there (the tip leaves the belt), each time a painleve-lift-off row whose
# note names the motions (the stretches' rows: tests/model/bridged_run_test.cpp).
set +e
"$saltus" run "$models/frictional_bounce.toml" --set mu=0.55 --set mechanics.painleve=stop \
  --t-end 1 --out "$work/fbm_stop" >/dev/null 2>"$work/fbm_stop.err"
code=$?
set -e
[[ $code == 2 ]] || { echo "painleve = stop: exit $code, expected 2" >&2; exit 1; }
grep -q "Painleve" "$work/fbm_stop.err" || { echo "painleve = stop: no Painleve message" >&2; exit 1; }
"$saltus" run "$models/frictional_bounce.toml" --set mu=0.55 --t-end 1 --out "$work/fbm_bridge" \
  >/dev/null
python3 - "$work/fbm_bridge" <<'PY'
import csv, json, os, sys
rows = list(csv.DictReader(open(os.path.join(sys.argv[1], "events.csv"))))
summary = json.load(open(os.path.join(sys.argv[1], "summary.json")))
lift_offs = [r for r in rows if r["guard"] == "painleve-lift-off"]
assert summary["status"] == "end-time-reached", summary["status"]
assert lift_offs and len(lift_offs) == len(summary["painleve_lift_offs"]), len(lift_offs)
assert all("several motions:" in r["note"] and "taken: the free motion" in r["note"]
           and r["mode_after"] == "free" for r in lift_offs), lift_offs[0]
assert summary["painleve_lift_offs"][0]["note"] == lift_offs[0]["note"]
print(f"frictional bounce mu = 0.55: {len(lift_offs)} lift-offs at Painleve points to t_end")
PY
