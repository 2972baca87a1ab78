"""A panel plugin driven the way the host drives it: `stand __worker` over its socket (fd 3), one
newline-delimited JSON request at a time (framework/src/isolation/worker_main.cpp), for tests that call
a plugin's interface directly. Test infrastructure only, stdlib only.

    with PluginWorker(stand, plugin_file, config, run_dir) as w:
        code, error, output = w.call("panel.bootstrap")
"""

import json
import os
import signal
import socket
import subprocess


class WorkerError(Exception):
    pass


class PluginWorker:
    def __init__(self, stand, plugin_file, config, run_dir, boxes=None, log=None):
        self.stand, self.plugin_file, self.config, self.run_dir = stand, plugin_file, config, run_dir
        self.boxes = boxes or {}  # box name -> cgroup directories its processes join
        self.log = log or (lambda line: None)
        self.next_id, self.buffer, self.proc, self.sock = 0, b"", None, None

    def __enter__(self):
        ours, theirs = socket.socketpair()
        os.makedirs(self.run_dir, exist_ok=True)
        stderr = open(os.path.join(self.run_dir, "worker.log"), "ab")
        # the worker reads fd 3 (isolation/worker_main.hpp); a session of its own, as the host gives it
        self.proc = subprocess.Popen(["sh", "-c", 'exec "$0" __worker 3<&"$1"', self.stand, str(theirs.fileno())],
                                     pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=stderr,
                                     stderr=stderr, start_new_session=True)
        theirs.close()
        stderr.close()
        self.sock = ours
        code, error, _ = self.request({"op": "create", "plugin": self.plugin_file, "config": json.dumps(self.config),
                                       "run_dir": self.run_dir, "allow_remote": False, "boxes": self.boxes})
        if code < 0:
            raise WorkerError("create: %d %s" % (code, error))
        return self

    def __exit__(self, *exc):
        try:
            self.request({"op": "destroy"}, timeout=60)
        except (OSError, WorkerError):
            pass
        self.sock.close()
        self.kill_session()

    def kill_session(self):
        """What the plugin started stays in the worker's session: it goes with it (isolation/session_kill)."""
        sid = self.proc.pid
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open("/proc/%s/stat" % pid) as f:
                    fields = f.read().rpartition(")")[2].split()
                if int(fields[3]) == sid:
                    os.kill(int(pid), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
        self.proc.wait(30)

    def call(self, method, args=None, timeout=300):
        """(result code, error text, output) of one interface call."""
        return self.request({"op": "call", "method": method, "args": args or {}}, timeout)

    def request(self, message, timeout=300):
        self.next_id += 1
        message = dict(message, id=self.next_id)
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        self.sock.settimeout(timeout)
        while True:
            reply = self._message()
            if reply.get("type") == "log":
                self.log(reply.get("message", ""))
            elif reply.get("type") == "reply":
                if reply.get("id") != self.next_id:
                    raise WorkerError("a reply to another request: %s" % reply)
                return reply.get("result", 0), reply.get("error", ""), reply.get("output")

    def _message(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise WorkerError("the worker went away (see %s/worker.log)" % self.run_dir)
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)
