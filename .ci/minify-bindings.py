#!/usr/bin/env python3
"""Shortens the names the wasm module and its JS glue use for each other.

wasm-bindgen names every import like `__wbg_classList_97e966c261669b85`: a hash that gzip
cannot compress, once in the wasm and once in the JS. wasm-opt renames them to one or two
letters and prints the mapping; this script applies it to the JS and refreshes the
`integrity` hashes Trunk wrote into index.html, after minifying the JS with terser. The two
save about 6.7 KB of the gzipped budget.
It fails loudly when a name is not found, so a change in wasm-bindgen's output breaks the
build instead of the app. Usage: minify-bindings.py DIST
"""
import base64
import glob
import hashlib
import json
import os
import re
import subprocess
import sys

dist = sys.argv[1]
[wasm] = glob.glob(os.path.join(dist, "*_bg.wasm"))
js = wasm[: -len("_bg.wasm")] + ".js"
html_path = os.path.join(dist, "index.html")

# Written beside the original and moved over it only once the JS is rewritten too.
tmp = wasm + ".min"
out = subprocess.run(
    ["wasm-opt", wasm, "--minify-imports-and-exports-and-modules", "-o", tmp],
    check=True, capture_output=True, text=True,
).stdout
mapping = json.loads(out[out.index("{"):])

src = open(js, encoding="utf-8").read()
modules = {m for m, _, _ in mapping["imports"]}
if modules != {"./agora_bg.js"}:
    sys.exit(f"minify-bindings: unexpected import modules {sorted(modules)}")


def rename(pattern, new, text, what):
    text, n = re.subn(pattern, new, text)
    if n == 0:
        sys.exit(f"minify-bindings: {what} not found in {os.path.basename(js)}")
    return text


# The import object's keys are `name: function(...)`; exports are read as `wasm.name`.
for _, old, new in mapping["imports"]:
    src = rename(r"\b" + re.escape(old) + r"(?=\s*:)", new, src, f"import {old}")
src = rename(r'"\./agora_bg\.js"(?=\s*:)', '"a"', src, "the import module")
for old, new in mapping["exports"]:  # some exports are unused by the glue: no rename then
    src = re.sub(r"\bwasm\." + re.escape(old) + r"\b", "wasm." + new, src)
# An old name still used as a key, a string or an export is read some other way, and
# renaming it would break the app. (The glue's own wrapper functions keep their names.)
for old in [o for _, o, _ in mapping["imports"]] + [o for o, _ in mapping["exports"]]:
    e = re.escape(old)
    if re.search(rf"wasm\.{e}\b|[\"']{e}[\"']|\b{e}\s*:", src):
        sys.exit(f"minify-bindings: {old} is still used in {os.path.basename(js)}")
open(js, "w", encoding="utf-8").write(src)
os.replace(tmp, wasm)
# Trunk's own JS minifier gives up on this glue ("RequiredTokenNotFound"); terser does not.
subprocess.run(["terser", js, "--module", "--compress", "--mangle", "-o", js], check=True)


def sri(path):
    digest = hashlib.sha384(open(path, "rb").read()).digest()
    return "sha384-" + base64.b64encode(digest).decode()


html = open(html_path, encoding="utf-8").read()
for path in (js, wasm):
    name = re.escape(os.path.basename(path))
    html = rename(
        r"(href=\./" + name + r" integrity=)sha384-[A-Za-z0-9+/=]+",
        lambda m, p=path: m.group(1) + sri(p), html, f"integrity of {path}",
    )
open(html_path, "w", encoding="utf-8").write(html)
print(f"  shortened {len(mapping['imports'])} import and {len(mapping['exports'])} export names")
