#!/usr/bin/env bash
# What verifying a certificate costs next to the check that wrote it (issue 15).
#
# For every (family, variant) of benchmarks/families.tsv, at the family's small size (the largest
# N of the manifest's `small` column) and two large sizes (LARGE below: sizes where most methods
# answer within ~30 s in benchmarks/results/methods.csv), and for every method, it runs
#   guarantor check MODEL --target T --method M --certificate C.json --timeout S   (timed)
# and, when the check answered, then
#   guarantor verify --certificate C.json MODEL --target T                          (timed)
# Both times are wall times of the whole CLI run (reading and elaborating the FSP model included).
# A method that runs out of its budget is not run on larger sizes of that variant; verify has no
# budget of its own and is killed after VERIFY_LIMIT seconds (counted as `killed`). Deadlock
# variants are skipped (their certificates are mono's; the other methods check safety only).
# Prints a markdown table (family, variant, n, method, verdict, check s, verify s, ratio
# verify/check, certificate kB) and writes benchmarks/results/certify.csv.
#
# With --repeat K, each answered check and its verify run K times and the best time of each counts.
# Usage: benches/compare/certify.sh [--timeout S] [--methods m1,m2,...] [--repeat K] [FAMILY...]
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=10; VERIFY_LIMIT=120; REPEAT=1; FAMILIES=()
METHODS="mono,lstar,lstar-sym,lstar-nway,lstar-weakest,quotient,circ"
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --methods) METHODS=$2; shift 2 ;;
        --repeat) REPEAT=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done

# The two large sizes per family.
declare -A LARGE=([dining]="6 8" [clientserver]="8 14" [mer]="6 8" [gas]="6 10" [bakery]="3 4" [swp]="6 10")

HARD=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%d", 2 * t + 10 }')
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/certify.csv"
echo "family,target,n,expected,method,verdict,check_s,verify_s,ratio,verify_result,certificate_bytes" > "$CSV"
declare -A GAVE_UP=()
IFS=, read -r -a METHOD_LIST <<< "$METHODS"

echo "| family | variant | n | method | verdict | check s | verify s | verify/check | cert kB |"
echo "|---|---|---:|---|---|---:|---:|---:|---:|"
START=$SECONDS
while read -r family target expected _flag small _large; do
    if [ ${#FAMILIES[@]} -gt 0 ] && [[ ! " ${FAMILIES[*]} " == *" $family "* ]]; then continue; fi
    [ "$expected" = deadlock ] && continue
    small_n=${small##*,}
    for n in $small_n ${LARGE[$family]:-}; do
        model="$WORK/$family-$n.lts"
        generate "$family" "$n" "$model"
        for m in "${METHOD_LIST[@]}"; do
            [ -n "${GAVE_UP["$family/$target/$m"]:-}" ] && continue
            cert="$WORK/cert.json"; rm -f "$cert"
            set +e
            out=$(timed "$WORK/time" timeout -s KILL "$HARD" "$GUARANTOR" check "$model" --target "$target" \
                --method "$m" --format json --timeout "$TIMEOUT" --no-deadlock --certificate "$cert" 2>"$WORK/err")
            rc=$?
            set -e
            read -r check_s _ < <(tail -1 "$WORK/time")
            case $rc in
                0|1) verdict=$(json_field "$out" verdict) ;;
                3|137) GAVE_UP["$family/$target/$m"]=$n
                       echo "$family,$target,$n,$expected,$m,budget,$check_s,,,," >> "$CSV"
                       continue ;;
                *) echo "error: $family $target N=$n --method $m: $(head -3 "$WORK/err")" >&2
                   echo "$family,$target,$n,$expected,$m,error,$check_s,,,," >> "$CSV"
                   continue ;;
            esac
            if [ ! -s "$cert" ]; then
                echo "no certificate: $family $target N=$n --method $m" >&2
                echo "$family,$target,$n,$expected,$m,$verdict,$check_s,,,no-certificate," >> "$CSV"
                continue
            fi
            bytes=$(wc -c < "$cert")
            set +e
            timed "$WORK/time" timeout -s KILL "$VERIFY_LIMIT" "$GUARANTOR" verify --certificate "$cert" "$model" \
                --target "$target" >/dev/null 2>"$WORK/verr"
            vrc=$?
            set -e
            read -r verify_s _ < <(tail -1 "$WORK/time")
            case $vrc in
                0) vres=accepted ;;
                1) vres=rejected; echo "REJECTED: $family $target N=$n --method $m: $(head -3 "$WORK/verr")" >&2 ;;
                137) vres=killed ;;
                *) vres=error; echo "verify error: $family $target N=$n --method $m: $(head -3 "$WORK/verr")" >&2 ;;
            esac
            # Further runs of both on the same certificate: the best time of each counts (the runs
            # of a loaded machine vary by more than the difference measured).
            for ((r = 1; r < REPEAT; r++)); do
                timed "$WORK/time" timeout -s KILL "$HARD" "$GUARANTOR" check "$model" --target "$target" \
                    --method "$m" --timeout "$TIMEOUT" --no-deadlock --certificate "$WORK/again.json" \
                    >/dev/null 2>&1 || true
                check_s=$(awk -v a="$check_s" -v b="$(tail -1 "$WORK/time" | cut -d' ' -f1)" 'BEGIN { print (b < a ? b : a) }')
                timed "$WORK/time" timeout -s KILL "$VERIFY_LIMIT" "$GUARANTOR" verify --certificate "$cert" "$model" \
                    --target "$target" >/dev/null 2>&1 || true
                verify_s=$(awk -v a="$verify_s" -v b="$(tail -1 "$WORK/time" | cut -d' ' -f1)" 'BEGIN { print (b < a ? b : a) }')
            done
            # Times below 0.01 s print as 0.00: the ratio takes 0.01 s as the floor.
            ratio=$(awk -v c="$check_s" -v v="$verify_s" 'BEGIN { if (c < 0.01) c = 0.01; if (v < 0.01) v = 0.01; printf "%.2f", v / c }')
            echo "$family,$target,$n,$expected,$m,$verdict,$check_s,$verify_s,$ratio,$vres,$bytes" >> "$CSV"
            note=""; [ "$vres" != accepted ] && note=" ($vres)"
            echo "| $family | $target | $n | $m | $verdict | $check_s | $verify_s$note | $ratio | $(( (bytes + 1023) / 1024 )) |"
        done
    done
done < <(manifest_rows)
echo
echo "Budget per check: ${TIMEOUT} s (a method out of budget is not run on larger sizes); $((SECONDS - START)) s in all."
for key in "${!GAVE_UP[@]}"; do echo "budget: $key at N=${GAVE_UP[$key]}"; done | sort
echo "CSV: $CSV"
