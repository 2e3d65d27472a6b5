#!/usr/bin/env python3
"""Streaming chat-completion benchmark for an OpenAI-compatible server (standard library only).

Sends N streaming chat completions one after another and reports, per request:
  ttft     time from sending the request to the first content chunk (includes prompt processing)
  gen_tps  (content chunks - 1) / (time of last content chunk - time of first content chunk)
  pp_tps   prompt tokens / ttft (a lower bound on prompt processing speed)
The first request is a warm-up and is left out of the summary.
Each request carries a distinct system line ("Session 0003.") so a server's
prefix reuse cannot skip prompt processing; --same-prompt turns that off.
"""
import argparse, json, statistics, sys, time, urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("--url", default="http://127.0.0.1:8091")
ap.add_argument("--label", default="")
ap.add_argument("-n", type=int, default=8)
ap.add_argument("--max-tokens", type=int, default=200)
ap.add_argument("--prompt", default="Write a short essay on why cities should ban private cars.")
ap.add_argument("--same-prompt", action="store_true")
ap.add_argument("--json-out")
a = ap.parse_args()


def messages(i):
    sysmsg = "You are a helpful assistant." if a.same_prompt else f"Session {i:04d}. You are a helpful assistant."
    return [{"role": "system", "content": sysmsg}, {"role": "user", "content": a.prompt}]


def post(body):
    req = urllib.request.Request(a.url + "/v1/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return urllib.request.urlopen(req, timeout=600)


# Prompt length in tokens, from a one-token non-streamed request (its usage field).
with post({"model": "smollm2-135m", "messages": messages(9999), "max_tokens": 1, "temperature": 0}) as r:
    prompt_tokens = json.load(r)["usage"]["prompt_tokens"]

rows = []
for i in range(a.n):
    body = {"model": "smollm2-135m", "messages": messages(i), "max_tokens": a.max_tokens,
            "temperature": 0, "stream": True}
    t0 = time.perf_counter()
    times, usage, finish = [], None, None
    with post(body) as r:
        for raw in r:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            ev = json.loads(data)
            if ev.get("usage"):
                usage = ev["usage"]
            for ch in ev.get("choices", []):
                if ch.get("delta", {}).get("content"):
                    times.append(time.perf_counter())
                if ch.get("finish_reason"):
                    finish = ch["finish_reason"]
    t_end = time.perf_counter()
    ttft = times[0] - t0
    gen_tps = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else float("nan")
    row = dict(i=i, chunks=len(times), ttft=ttft, gen_tps=gen_tps, pp_tps=prompt_tokens / ttft,
               total=t_end - t0, finish=finish, usage=usage)
    rows.append(row)
    print(f"{a.label} req {i}{' (warm-up)' if i == 0 else ''}: chunks={len(times)} finish={finish} "
          f"ttft={ttft*1000:.0f} ms gen={gen_tps:.1f} tok/s pp~{prompt_tokens/ttft:.0f} tok/s "
          f"total={t_end-t0:.2f} s usage={usage}", flush=True)

meas = rows[1:]


def summ(key, scale=1.0):
    v = sorted(r[key] * scale for r in meas)
    return statistics.median(v), v[0], v[-1]


g, t, p = summ("gen_tps"), summ("ttft", 1000), summ("pp_tps")
print(f"{a.label} SUMMARY n={len(meas)} prompt_tokens={prompt_tokens} "
      f"gen tok/s median {g[0]:.1f} [{g[1]:.1f}-{g[2]:.1f}]  "
      f"ttft ms median {t[0]:.0f} [{t[1]:.0f}-{t[2]:.0f}]  "
      f"pp tok/s median {p[0]:.0f} [{p[1]:.0f}-{p[2]:.0f}]", flush=True)
if a.json_out:
    with open(a.json_out, "w") as f:
        json.dump(dict(label=a.label, prompt_tokens=prompt_tokens, rows=rows), f)
