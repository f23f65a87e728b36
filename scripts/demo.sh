#!/usr/bin/env bash
# One command from a fresh Debian machine: install what is missing, build,
# and run the demo: firmware/mx_gemm_bias on the SystemC platform, checked
# against an independent golden, with its summary and a Perfetto trace.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target ptovp
ptovp=build/release/platform/ptovp
out=build/demo
mkdir -p "$out"

echo "== ptovp: checking the public conformance vectors =="
"$ptovp" vectors tests/vectors/*.vec

echo "== ptovp: mx_gemm_bias on the SystemC/TLM-2.0 platform =="
source=firmware/mx_gemm_bias/mx_gemm_bias.s
"$ptovp" asm "$source" -o "$out/mx_gemm_bias.elf"
read -r address length < <(python3 scripts/mx_gemm_bias_data.py make "$source" "$out")
"$ptovp" run "$out/mx_gemm_bias.elf" --load "$out/input.bin@$address" \
  --dump "$address:$length:$out/output.bin" \
  --trace "$out/mx_gemm_bias.trace.json" --stats "$out/mx_gemm_bias.stats.json"
python3 scripts/mx_gemm_bias_data.py check "$source" "$out"
echo "trace: $out/mx_gemm_bias.trace.json (open it in https://ui.perfetto.dev)"
echo "stats: $out/mx_gemm_bias.stats.json (python3 scripts/plot_stats.py $out/mx_gemm_bias.stats.json)"
