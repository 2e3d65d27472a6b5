#!/usr/bin/env bash
# Tokens per second of the local model (llama.cpp's server, SmolLM2-135M) built two ways:
# the portable build `.ci/lib.sh` installs (AVX2/FMA/F16C, no AVX-512, no AMX) and
# llama.cpp's default native build (-march=native), in a second venv built here once
# (about 10 minutes on 2 cores). The two servers take turns on port 8091, one at a time, so
# background load falls on both alike; tests/bench/llama_speed.py measures each round.
# Usage: bash tests/bench/llama-builds.sh [rounds]   (BENCHMARKS.md has the figures)
set -euo pipefail
cd "$(dirname "$0")/../.."
source .ci/lib.sh
ensure_local_model
rounds=${1:-6}
A=$CACHE
if [ ! -x "$A/venv-native/bin/python" ] || ! "$A/venv-native/bin/python" -c 'import llama_cpp' 2>/dev/null; then
  python3 -m venv "$A/venv-native"
  CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) with_heartbeat "Compiling llama.cpp for this CPU (-march=native), for comparison" \
    env -u CMAKE_ARGS "$A/venv-native/bin/pip" install -q --no-cache-dir "llama-cpp-python[server]==$LLAMA_CPP_VERSION"
fi
out=$(mktemp -d)
for r in $(seq 1 "$rounds"); do
  for b in portable native; do
    V=$A/venv; [ $b = native ] && V=$A/venv-native
    "$V/bin/python" -m llama_cpp.server --model "$(gguf_path)" --model_alias smollm2-135m --host 127.0.0.1 --port 8091 \
      --n_ctx 4096 --interrupt_requests False >"$out/server-$b-$r.log" 2>&1 &
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
    d = json.load(open(f)); r = res.setdefault(d["label"].split("/")[0], {"gen": [], "ttft": []})
    r["gen"] += [x["gen_tps"] for x in d["rows"][1:]]; r["ttft"] += [x["ttft"] * 1000 for x in d["rows"][1:]]
for b, r in sorted(res.items()):
    print(f"{b}: generation {S.median(r['gen']):.1f} tokens/s (median), first token {S.median(r['ttft']):.0f} ms, {len(r['gen'])} requests")
p, n = S.median(res["portable"]["gen"]), S.median(res["native"]["gen"])
print(f"the portable build costs {100 * (n - p) / n:+.1f}% tokens/s against the native one (negative: it is faster)")
PY
