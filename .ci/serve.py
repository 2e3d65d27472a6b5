"""Serves a folder on 127.0.0.1 like `python3 -m http.server`, adding the two headers that
make the page cross-origin isolated (COOP/COEP), so the in-page model can use several
threads. Usage: python3 .ci/serve.py PORT DIR"""
import functools
import http.server
import sys


class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


handler = functools.partial(Isolated, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
