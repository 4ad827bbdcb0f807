"""daemon_client.py -- what the independent pyzmq clients of arbiterd share
(tests/e2e_remedy.py, tests/e2e_broadcast.py), written from arbiterd(8) and
arbiter-keyring(5): keys made with `arbiter keygen`, CURVE sockets, a query
asked once.  The checks' PASS/FAIL lines are e2e_keys.py's Check."""
import json
import os
import signal
import socket
import subprocess
import time

import zmq

CTX = zmq.Context()


def keygen(arbiter, folder, name, role):
    """A key made with `arbiter keygen NAME --role ROLE`: its file, its pair
    in Z85 (arbiter-keyring(5): `name = value` lines) and its keyring line."""
    prefix = os.path.join(folder, name)
    r = subprocess.run([arbiter, "keygen", name, "--out", prefix, "--role", role], capture_output=True, text=True,
                       timeout=60)
    if r.returncode:
        raise RuntimeError("arbiter keygen %s: %s" % (name, r.stderr))
    kv = {}
    with open(prefix + ".key") as f:
        for line in f:
            k, _, v = line.partition("=")
            kv[k.strip()] = v.strip()
    line = [l.split(":", 1)[1].strip() for l in r.stdout.splitlines() if l.startswith("keyring line:")][0]
    return {"name": name, "key": prefix + ".key", "pub": prefix + ".pub", "public": kv["curve-public"],
            "secret": kv["curve-secret"], "line": line}


def sock(kind, ep, key, server):
    """A CURVE socket of `kind` connected to ep with `key` (keygen's)."""
    s = CTX.socket(kind)
    s.setsockopt(zmq.LINGER, 0)
    s.curve_publickey = key["public"].encode()
    s.curve_secretkey = key["secret"].encode()
    s.curve_serverkey = server.encode()
    s.connect(ep)
    return s


def query(s, obj, t=20.0):
    """One query (JSON) and its reply, or None after t seconds."""
    s.send(json.dumps(obj).encode())
    if not s.poll(int(t * 1000)):
        return None
    return json.loads(s.recv())


class Daemon:
    """arbiterd on fresh loopback ports (ingest, feed, query, broadcast:
    self.ep[0..3]), its output into `log`; start() again after stop() is a
    restart on the same ports and store."""

    def __init__(self, arbiterd, log, args):
        self.ep = []
        for _ in range(4):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            self.ep.append("tcp://127.0.0.1:%d" % s.getsockname()[1])
            s.close()
        self.log = log
        self.args = [arbiterd, "--ingest", self.ep[0], "--feed", self.ep[1], "--query", self.ep[2],
                     "--broadcast", self.ep[3]] + list(args)
        self.start()

    def start(self):
        self.logf = open(self.log, "ab")
        self.proc = subprocess.Popen(self.args, stdout=self.logf, stderr=subprocess.STDOUT)

    def up(self, q, t=30.0):
        """Once the query socket q (connected to self.ep[2]) answers health:
        True; False when the daemon exits or t seconds pass."""
        end = time.time() + t
        while time.time() < end and self.proc.poll() is None:
            if query(q, {"op": "health"}, 1.0) is not None:
                return True
        return False

    def stop(self):
        """SIGTERM, and the exit code (killed after 30 s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.logf.close()
        return rc
