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
