#!/bin/sh
# Instructions per iteration of each scenario, counted by callgrind (perf counters are not available on
# these machines). Unlike wall-clock time, the counts do not move with the load of the machine.
#   scripts/callgrind.sh [scenario ...]      (from the Benchmarks folder)
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product CompositionProfile >/dev/null
out=$(mktemp -d)
# valgrind 3.19 gives up on the DWARF 5 debug info Swift 6.3 emits ("Possibly corrupted debuginfo file",
# every count 0): profile a copy without it (the symbol table stays, so the toggle and the names work).
binary=$out/CompositionProfile
objcopy --strip-debug .build/release/CompositionProfile "$binary"
scenarios=${*:-"pixman pixman-copy memcpy pixman-scale-up scale-up pixman-cross-fade pixman-cross-fade-copy cross-fade scanout-cross-fade pixman-table-scroll pixman-table-scroll-copy table-scroll scanout-table-scroll cursor-move cursor-move-composed full-frame scanout-frame copy damage-200 move-200 hit-window hit-grid-build hit-frontmost hit-non-interactive hit-pass-through tap tap-gestures touch-down touch-down-gestures"}
for scenario in $scenarios; do
    case $scenario in
        *scale-up) iterations=30 ;;  # the whole animation, 1.0 -> 1.25
        *cross-fade|*cross-fade-copy) iterations=30 ;;  # the whole fade, 30 steps
        *table-scroll*) iterations=20 ;;  # both offsets, ten times each
        pixman*|memcpy|full-frame|scanout-frame|copy|hit-pass-through) iterations=20 ;;
        *) iterations=500 ;;
    esac
    total=$(valgrind --tool=callgrind --callgrind-out-file="$out/$scenario.out" --collect-atstart=no \
        '--toggle-collect=*measured*' "$binary" "$scenario" "$iterations" 2>&1 | sed -n 's/.*Collected : //p' | tr -d ,)
    printf '%-20s %12d instructions per iteration\n' "$scenario" $((total / iterations))
done
echo "callgrind files (callgrind_annotate FILE): $out"
