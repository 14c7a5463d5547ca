#!/bin/bash
# The "both roles" benchmarks on the simulated radio; prints tables, asserts
# nothing. Run by `make bench` (which builds BUILD_DIR/bench/connect first).
#   bench/run.sh [BUILD_DIR] [RUNS] [STATIONS]   defaults: build 20 100
# Memory needs root (a network namespace) and hostapd + wpa_supplicant:
# scripts/install-deps.sh bench.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-20}
stations=${3:-100}
echo "wpad benchmarks: $(uname -srm), $(nproc) cores, build $build"
"$build/bench/connect" "$runs" "$stations"
"$build/bench/connect" sae "$stations" || echo "(SAE at once: not every station made it; see above)"
"$build/bench/sae_cpu" 200 19 20 21
bash bench/memory.sh "$build"
bash bench/idle.sh --build "$build" --seconds 60
