#!/usr/bin/env bash
# Compiles LTSA's analysis core (no GUI) and our headless driver, for the differential fuzzer.
#   build-ltsa.sh LTSA_SRC_DIR OUT_DIR [LTL2BUCHI_SRC_DIR]
# LTSA_SRC_DIR: a work tree of github.com/gabrielsr/ltsa (commit 16d31ee). LTSA ships null stubs
# for the NASA LTL2Buchi graph reductions that its LTL check loads; LTL2BUCHI_SRC_DIR, a work tree
# of github.com/esb-dev/ltl2buchi (commit 1559935), gives the real ones (without it LTL checks of
# liveness formulas are not meaningful). Nothing of LTSA's goes into this repository: OUT_DIR
# should be a scratch folder. Needs javac (Java 17 works).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$1/ltsa/src/main/java
out=$2
nasa=${3:-}
[ -d "$src/ic/doc/ltsa/lts" ] || { echo "no LTSA sources under $src" >&2; exit 2; }
rm -rf "$out/classes" "$out/tree"
mkdir -p "$out/classes" "$out/tree"
cp -r "$src/." "$out/tree/"
if [ -n "$nasa" ]; then
  rm -f "$out/tree/gov/nasa/ltl/graph/"*.java
  cp "$nasa/src/gov/nasa/ltl/graph/"*.java "$out/tree/gov/nasa/ltl/graph/"
fi
# The stubs (ours) stand in for the GUI window and the plugin registry the core touches.
( cd "$out/tree" && javac -nowarn -encoding ISO-8859-1 -sourcepath "$here/stubs:." \
    -d "$out/classes" ic/doc/ltsa/lts/*.java ic/doc/ltsa/lts/ltl/*.java gov/nasa/ltl/graph/*.java \
    2>&1 | grep -v '^Note:' || true )
javac -nowarn -cp "$out/classes" -d "$out/classes" "$here/LtsaDriver.java"
echo "built: java -cp $out/classes LtsaDriver MODEL TARGET"
