"""Serves a folder on 127.0.0.1 like `python3 -m http.server`, adding the two headers that
make the page cross-origin isolated (COOP/COEP), so the in-page model can use several
threads. A file with a precompressed copy beside it (.br, .gz: .ci/precompress.mjs) is sent
in the smallest form the browser accepts, as a static host set up for it does.
Usage: python3 .ci/serve.py PORT DIR"""
import functools
import http.server
import os
import sys

# Preferred first.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        accepted = self.headers.get("Accept-Encoding", "")
        accepted = {e.split(";")[0].strip() for e in accepted.split(",")}
        if os.path.isfile(path) and "Range" not in self.headers:
            for encoding, suffix in ENCODINGS:
                if encoding in accepted and os.path.isfile(path + suffix):
                    f = open(path + suffix, "rb")
                    self.send_response(200)
                    self.send_header("Content-Type", self.guess_type(path))
                    self.send_header("Content-Encoding", encoding)
                    self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return f
        return super().send_head()

    def log_message(self, *args):
        pass


handler = functools.partial(Isolated, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
