#!/usr/bin/env bash
# Packages every publishable crate as `cargo publish` would, then builds and tests the bottom
# crates from their packaged sources alone (extracted from the .crate files, no workspace around
# them), so a test or doc-test that reads a file outside its package fails here, not on docs.rs
# or for a user of the published crate.
#
# Usage: .ci/package.sh [CRATE...]   (default: guarantor-lts guarantor-ltl-core guarantor-certify
#                                     guarantor-compose guarantor-fsp: every crate of ours they use)
# Env:   CARGO_TARGET_DIR            (default target: where `cargo package` writes the .crate files)
#        PACKAGED_DIR                (default $TMPDIR/guarantor-packaged: where they are unpacked and
#                                     built; outside the workspace, or cargo would take them for
#                                     members of it)
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
tested=("$@")
[ ${#tested[@]} -gt 0 ] || tested=(guarantor-lts guarantor-ltl-core guarantor-certify guarantor-compose guarantor-fsp)

# Every publishable crate must package: metadata complete, README and licences included, no file
# outside the package (cargo refuses a `readme` or `include_str!` path outside it at this step).
# --no-verify: the verification build would compile every crate a second time; the crates tested
# below are built from their packages anyway, and the others are built by the workspace steps.
cargo package --workspace --exclude guarantor-testkit --exclude guarantor-benches \
    --no-verify --allow-dirty --quiet

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
unpacked=${PACKAGED_DIR:-${TMPDIR:-/tmp}/guarantor-packaged}
rm -rf "$unpacked"
mkdir -p "$unpacked"

# Dependencies between our own crates resolve to the unpacked packages, never to the workspace.
patches=()
for crate in "${tested[@]}"; do
    file="$target/package/$crate-$version.crate"
    listing=$(tar tzf "$file")
    for entry in README.md LICENSE-MIT LICENSE-APACHE; do
        grep -qx "$crate-$version/$entry" <<<"$listing" \
            || { echo "$file lacks $entry" >&2; exit 1; }
    done
    tar xzf "$file" -C "$unpacked"
    patches+=(--config "patch.crates-io.$crate.path=\"$unpacked/$crate-$version\"")
done

for crate in "${tested[@]}"; do
    echo "==> $crate from its package"
    (
        cd "$unpacked/$crate-$version"
        # A package carries no workspace profile: without debug info its test binaries take a
        # fraction of the disk (a CI machine's disk once filled up during this build).
        CARGO_TARGET_DIR="$unpacked/target" CARGO_PROFILE_DEV_DEBUG=false \
            cargo test --all-features --quiet "${patches[@]}"
    )
done
rm -rf "$unpacked"
