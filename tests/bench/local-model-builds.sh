#!/usr/bin/env bash
# Tokens per second of the local model (SmolLM2-135M) served two ways: the server the test
# and run commands start (local-model/server.mjs, llama.cpp prebuilt by node-llama-cpp, from
# npm) and llama.cpp compiled on this machine for a portable CPU (llama-cpp-python's server,
# AVX2/FMA/F16C, no AVX-512 or AMX: what the test command installed before), in a venv
# built here once (about 10 minutes on 2 cores, up to 20 with other work). The two servers
# take turns on port 8091, one at a time, so background load falls on both alike;
# tests/bench/llama_speed.py measures each round (one thread each: --threads 1 and
# --n_threads 1, as the test command runs them).
# Usage: bash tests/bench/local-model-builds.sh [rounds]   (BENCHMARKS.md has the figures)
set -euo pipefail
cd "$(dirname "$0")/../.."
source .ci/lib.sh
ensure_local_model
rounds=${1:-6}
V=$CACHE/venv-portable
PORTABLE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DLLAVA_BUILD=OFF"
if [ ! -x "$V/bin/python" ] || ! "$V/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
  python3 -m venv "$V"
  CMAKE_ARGS="$PORTABLE" CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) with_heartbeat "Compiling llama.cpp for a portable CPU, for comparison" \
    "$V/bin/pip" install -q --no-cache-dir "llama-cpp-python[server]==0.3.36"
fi
out=$(mktemp -d)
for r in $(seq 1 "$rounds"); do
  for b in prebuilt compiled; do
    if [ $b = prebuilt ]; then
      node local-model/server.mjs --model "$(gguf_path)" --alias smollm2-135m --port 8091 --threads 1 >"$out/server-$b-$r.log" 2>&1 &
    else
      "$V/bin/python" -m llama_cpp.server --model "$(gguf_path)" --model_alias smollm2-135m --host 127.0.0.1 --port 8091 \
        --n_ctx 4096 --n_threads 1 --n_threads_batch 1 --interrupt_requests False >"$out/server-$b-$r.log" 2>&1 &
    fi
    pid=$!
    for _ in $(seq 1 120); do curl -fsS http://127.0.0.1:8091/v1/models >/dev/null 2>&1 && break; sleep 1; done
    python3 tests/bench/llama_speed.py --label "$b/$r" -n 8 --json-out "$out/$b-$r.json" | grep SUMMARY
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
python3 - "$out" <<'PY'
import json, glob, statistics as S, sys
res = {}
for f in glob.glob(sys.argv[1] + "/*.json"):
    d = json.load(open(f)); r = res.setdefault(d["label"].split("/")[0], {"gen": [], "ttft": [], "pp": []})
    rows = d["rows"][1:]
    r["gen"] += [x["gen_tps"] for x in rows]; r["ttft"] += [x["ttft"] * 1000 for x in rows]; r["pp"] += [x["pp_tps"] for x in rows]
for b, r in sorted(res.items()):
    q = S.quantiles(r["gen"], n=4)
    print(f"{b}: generation {S.median(r['gen']):.1f} tokens/s (median; quartiles {q[0]:.1f}-{q[2]:.1f}), first token {S.median(r['ttft']):.0f} ms, prompt at least {S.median(r['pp']):.0f} tokens/s, {len(r['gen'])} requests")
p, c = S.median(res["prebuilt"]["gen"]), S.median(res["compiled"]["gen"])
print(f"the prebuilt server generates {100 * (p - c) / c:+.1f}% tokens/s against the compiled one")
PY
