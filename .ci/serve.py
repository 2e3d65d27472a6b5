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


def accepted_encodings(header):
    """The encodings an Accept-Encoding header allows (`br;q=0` refuses br)."""
    allowed = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=")
        try:
            refused = params.strip().startswith("q=") and float(q) == 0
        except ValueError:
            refused = False
        if name and not refused:
            allowed.add(name.strip())
    return allowed


class Isolated(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        # Names the run command to the page (read from its navigation timing), so an error
        # about the local model may say to run it again only where it served the page.
        self.send_header("Server-Timing", "agora-serve")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if os.path.isfile(path) and "Range" not in self.headers:
            accepted = accepted_encodings(self.headers.get("Accept-Encoding", ""))
            for encoding, suffix in ENCODINGS:
                packed = path + suffix
                # A copy older than its file (the file edited by hand since) is not it.
                if (encoding in accepted and os.path.isfile(packed)
                        and os.path.getmtime(packed) >= os.path.getmtime(path)):
                    f = open(packed, "rb")
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
