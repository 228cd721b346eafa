#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets (filter, dn, ldif, vcard) and
# runs each for FUZZ_SECONDS seconds (default 60), or only those named:
#
#   scripts/fuzz.sh                     all four, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz.sh ldif
#   scripts/fuzz.sh --build             build only
#
# The libraries (LDAPKit, LDAPBook, FuzzChecks) are built by SwiftPM in
# .build/fuzz with -sanitize=fuzzer,address, optimized but with bounds checks
# on unsafe pointers kept (-assert-config Debug). Each entry file is then
# compiled and linked with swiftc: libFuzzer brings its own main, which
# SwiftPM's executable targets cannot give up.
#
# Each run starts from the seeds in Fuzz/corpus/<target> and the kept crash
# inputs in Fuzz/regressions/<target>, with the tokens of
# Fuzz/dictionaries/<target>.dict; inputs that reach new code are saved
# in .build/fuzz/corpus/<target>, so later runs go on from there. A crash or
# a broken property (FuzzChecks) leaves the input in .build/fuzz/crashes/<target>/
# and makes the script fail once every target has run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
all_targets=(filter dn ldif vcard)
build_only=false
targets=()
for argument in "$@"; do
  case "$argument" in
    --build) build_only=true ;;
    filter|dn|ldif|vcard) targets+=("$argument") ;;
    *) echo "usage: scripts/fuzz.sh [--build] [filter|dn|ldif|vcard]..." >&2; exit 64 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

# libldap-dev and pkg-config, which LDAPKit needs to build.
scripts/ensure-packages.sh

# libFuzzer comes with the Swift toolchain (libclang_rt.fuzzer), not from Debian.
toolchain_lib=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib
if ! find -L "$toolchain_lib" -name 'libclang_rt.fuzzer-*.a' 2>/dev/null | grep -q .; then
  echo "error: the Swift toolchain in $toolchain_lib has no libFuzzer runtime (libclang_rt.fuzzer);" \
       "use the swift.org toolchain for Linux, which ships it" >&2
  exit 69
fi

flags=(-sanitize=fuzzer,address -assert-config Debug)
scratch=.build/fuzz
echo "== building the fuzz targets in $scratch"
swift build -c release --scratch-path "$scratch" $(printf -- '-Xswiftc %s ' "${flags[@]}") --target FuzzChecks
products=$scratch/release
# The object files of the modules' current sources, as SwiftPM's output file
# maps name them (a glob would also catch those of renamed or deleted files).
objects=()
for module in LDAPKit SQLiteKit LDAPBook FuzzChecks; do
  while IFS= read -r object; do
    objects+=("$object")
  done < <(grep -o '"object" *: *"[^"]*\.swift\.o"' "$products/$module.build/output-file-map.json" | sed 's/^.*: *"//; s/"$//')
done
mkdir -p "$scratch/bin"
for target in "${targets[@]}"; do
  swiftc -parse-as-library -O "${flags[@]}" -use-ld=lld \
    -I "$products/Modules" -I Sources/CLDAP -I Sources/CSQLite \
    "Fuzz/Targets/$target.swift" "${objects[@]}" \
    -lldap -llber -lsqlite3 -o "$scratch/bin/$target"
done
$build_only && exit 0

# A property that does not hold ends in fatalError. Swift's backtracer is
# off: under libFuzzer it was seen to hang rather than let the fuzzer save
# the input. Leaks are not checked (the Swift runtime's caches look like
# leaks to LeakSanitizer).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

failed=()
for target in "${targets[@]}"; do
  corpus=$scratch/corpus/$target
  crashes=$scratch/crashes/$target
  mkdir -p "$corpus" "$crashes"
  seeds=("Fuzz/corpus/$target")
  [ -d "Fuzz/regressions/$target" ] && seeds+=("Fuzz/regressions/$target")
  log=$scratch/$target.log
  echo "== fuzzing $target for $seconds s (log: $log)"
  if "$scratch/bin/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
      -dict="Fuzz/dictionaries/$target.dict" -artifact_prefix="$crashes/" \
      "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true
  else
    failed+=("$target")
    grep -E 'Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' "$log" | head -5 || true
    grep -E 'Test unit written to' "$log" || true
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  cat >&2 <<MESSAGE
fuzzing found a problem in: ${failed[*]} (the inputs are in $scratch/crashes/).
Replay one with: SWIFT_BACKTRACE=enable=no $scratch/bin/<target> <input>
Once the bug is fixed, keep the input as a regression test:
  cp <input> Fuzz/regressions/<target>/<short-name> && swift test --filter FuzzRegressionTests
MESSAGE
  exit 1
fi
echo "fuzzing found nothing in ${targets[*]} ($seconds s each)"
