#!/usr/bin/env python3
"""The panel pages' commands, run as a newcomer runs them after
`./stand.sh quickstart` and `cmake --build build --target panels`:

    check_doc_commands.py --source SRC --build BUILD [--no-go] [--page PAGE]...
    check_doc_commands.py --self-test

Every ```sh block of the pages (PAGES below, or each --page) carries a
marker on the line before it, which says what this check does with it:

    <!-- doc-commands: run -->            each command runs as written and
        must exit 0
    <!-- doc-commands: check -->          each `build/bin/stand run` runs with
        --check (everything validated, nothing measured) and must exit 0;
        every other command's program must exist
    <!-- doc-commands: skip: REASON -->   not run here, for REASON (the real
        panels need their sources fetched and built by hand)

A block without a marker fails the check: nothing is left out silently.

Commands run from a scratch directory that holds the repository's folders
and `build` as links (BUILD may be any build directory), with TMPDIR in it;
what they write relative to the working directory stays there, and it is
removed at the end. A JSON config that a command gives by `--target-config
FILE` or `ID=@FILE` is copied there with every port moved to a free block
from 28400 (tests/relocate_ports.py's free_block), so a run does not meet
the ctest that uses the same config.

In every block, whatever its marker, each path of the repository or the
build (build/..., tests/..., scenarios/..., docs/..., plugins/..., sdk/...)
must exist; so must every such path written in backquotes in the pages'
text. A `--plugin ID=@FILE` must be a plugin config and a `--target-config
FILE` a compat target (`"config"` beside the checks' keys). With --no-go
(Go was not found when BUILD was configured), the paths the build makes with
Go only (the real 3x-ui, the Hysteria 2 test server, the real panels'
targets) are named as not checked, as are the paths MADE_BY names: a step
other than the build makes them.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from relocate_ports import free_block  # noqa: E402

# docs/panels.md and the pages it sends a newcomer to.
PAGES = [
    "docs/panels.md",
    "scenarios/panel-only.md",
    "scenarios/one-server.md",
    "tests/real-panels/README.md",
    "tests/real-panels/pasarguard-from-source.md",
    "tests/real-panels/remnawave-from-source.md",
    "docs/measurements/one-server-all-panels.md",
    "plugins/3x-ui/README.md",
    "plugins/pasarguard/README.md",
    "plugins/remnawave/README.md",
]
PORT_BASE = 28400
COMMAND_TIMEOUT_S = 300
ROOTS = ("build", "tests", "scenarios", "docs", "plugins", "sdk", "framework", "examples", "common")
PATH_RE = re.compile(r"(?<![\w./$~-])((?:%s)/[\w./+-]*)" % "|".join(ROOTS))
GO_MADE = ("build/real/", "build/tests/hy2server", "build/tests/real-panels/")
# Paths the pages name that a step other than the build makes.
MADE_BY = {
    "build/real/podman": "tests/real-panels/build_3x_ui_image.sh (ctest real.3x-ui.docker_compat)",
}
MARKER_RE = re.compile(r"^\s*<!--\s*doc-commands:\s*(run|check|skip)\s*(?::\s*(.*?))?\s*-->\s*$")
FENCE_RE = re.compile(r"^(\s*)```(\S*)\s*$")
STATUS_TAG = "__doc_commands_status"
SHELL_WORDS = {"kill", "wait", "cd", "source", ".", "export", "echo", "set", "trap"}


class Block:
    def __init__(self, page, line, mode, reason, text):
        self.page, self.line, self.mode, self.reason, self.text = page, line, mode, reason, text

    def where(self):
        return f"{self.page}:{self.line}"

    def commands(self):
        """The block's commands: continued lines joined, comment lines dropped."""
        out, pending = [], ""
        for raw in self.text.split("\n"):
            line = raw.rstrip()
            if not pending and (not line.strip() or line.strip().startswith("#")):
                continue
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            out.append((pending + line).strip())
            pending = ""
        if pending.strip():
            out.append(pending.strip())
        return out


def parse_marker(text):
    m = MARKER_RE.match(text)
    return (m.group(1), m.group(2) or "") if m else None


def read_page(src, page):
    """The page's sh blocks (with their markers), its unmarked sh blocks, and its prose."""
    lines = open(os.path.join(src, page)).read().split("\n")
    blocks, unmarked, prose = [], [], []
    i = 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            prose.append(lines[i])
            i += 1
            continue
        indent, lang, start = len(m.group(1)), m.group(2), i
        i += 1
        body = []
        while i < len(lines) and not FENCE_RE.match(lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        i += 1
        if lang != "sh":
            continue
        before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        marker = parse_marker(before)
        if marker is None:
            unmarked.append(f"{page}:{start + 1}")
        else:
            blocks.append(Block(page, start + 1, *marker, "\n".join(body)))
    return blocks, unmarked, "\n".join(prose)


class Checker:
    def __init__(self, src, build, go):
        self.src, self.build, self.go = src, build, go
        self.failures, self.not_checked = [], set()
        self.work = None
        self.next_port = PORT_BASE

    def fail(self, message):
        self.failures.append(message)
        print(f"FAIL: {message}")

    def real_path(self, path):
        if path == "build" or path.startswith("build/"):
            return os.path.join(self.build, path[len("build/"):])
        return os.path.join(self.src, path)

    def check_path(self, where, path):
        path = path.rstrip(".,:;/")
        made_by = next((step for made, step in MADE_BY.items() if path == made or path.startswith(made + "/")), None)
        if made_by:
            self.not_checked.add(f"{path}: made by {made_by}")
            return
        if not self.go and (path + "/").startswith(GO_MADE):
            self.not_checked.add(f"{path}: Go was not found when the build was configured")
            return
        if not os.path.exists(self.real_path(path)):
            self.fail(f"{where}: names {path}, which does not exist"
                      + (" (in the build: has `cmake --build build --target panels` run?)" if path.startswith("build/") else ""))

    def check_paths(self, where, text):
        for path in PATH_RE.findall(text):
            self.check_path(where, path)

    def check_config_kinds(self, block):
        """--plugin ID=@FILE takes a plugin config, --target-config FILE a compat target."""
        for command in block.commands():
            try:
                words = shlex.split(command, comments=True)
            except ValueError as e:
                self.fail(f"{block.where()}: cannot split `{command}`: {e}")
                continue
            for prev, word in zip([""] + words, words):
                path, want_target = None, None
                if prev == "--target-config":
                    path, want_target = word, True
                elif "=@" in word and not word.startswith("-"):
                    path, want_target = word.split("=@", 1)[1], False
                if not path or not PATH_RE.fullmatch(path) or (not self.go and path.startswith(GO_MADE)):
                    continue
                try:
                    doc = load_json(self.real_path(path))
                except (OSError, ValueError):
                    continue  # a missing file is named by the path check
                is_target = isinstance(doc, dict) and isinstance(doc.get("config"), dict)
                if is_target != want_target:
                    kind = "a compat target" if is_target else "a plugin config"
                    self.fail(f"{block.where()}: {path} is {kind}, given as "
                              + ("--target-config" if want_target else "--plugin ID=@FILE"))

    # --- running -----------------------------------------------------------

    def workspace(self):
        if self.work is None:
            self.work = tempfile.mkdtemp(prefix="stand-doc-commands.")
            for name in os.listdir(self.src):
                if name not in (".git", "build"):
                    os.symlink(os.path.join(self.src, name), os.path.join(self.work, name))
            os.symlink(self.build, os.path.join(self.work, "build"))
            os.makedirs(os.path.join(self.work, "tmp"))
            os.makedirs(os.path.join(self.work, "doc-configs"))
        return self.work

    def relocated(self, path):
        """A copy of the JSON config at `path` (relative to the workspace) with its ports in a free block."""
        text = open(os.path.join(self.work, path)).read()
        found = re.findall(r'"\w*port"\s*:\s*(\d+)', text) + re.findall(r"127\.0\.0\.1:(\d+)", text)
        ports = sorted({int(p) for p in found if 0 < int(p) < 65536})
        base = free_block(self.next_port, max(len(ports), 1))
        self.next_port = base + len(ports)
        moved = {old: base + i for i, old in enumerate(ports)}
        for old, new in moved.items():
            text = re.sub(rf"(?<!\d){old}(?!\d)", str(new), text)
        out = os.path.join("doc-configs", f"{len(os.listdir(os.path.join(self.work, 'doc-configs')))}-"
                           + os.path.basename(path))
        open(os.path.join(self.work, out), "w").write(text)
        return out, moved

    def as_run(self, command, mode):
        words = shlex.split(command, comments=True)
        for prev, word in zip([""] + words, words):
            path = word if prev == "--target-config" else (word.split("=@", 1)[1] if "=@" in word else None)
            if path and path.endswith(".json") and os.path.isfile(os.path.join(self.work, path)):
                copy, moved = self.relocated(path)
                command = command.replace(path, copy)
                print(f"    {path}: ports {', '.join(f'{a}->{b}' for a, b in moved.items()) or 'none'}")
        if mode == "check":
            command = re.sub(r"(^|\s)(build/bin/stand run)(\s)", r"\1\2 --check\3", command, count=1)
        return command

    def program_exists(self, block, command):
        words = [w for w in shlex.split(command, comments=True) if not re.match(r"^\w+=", w)]
        if not words:
            return
        prog = words[0]
        if prog in SHELL_WORDS or prog.startswith("%"):
            return
        if not self.go and prog.startswith(GO_MADE):
            self.not_checked.add(f"{prog}: Go was not found when the build was configured")
            return
        found = os.access(os.path.join(self.work, prog), os.X_OK) if "/" in prog else shutil.which(prog)
        if not found:
            self.fail(f"{block.where()}: `{command}`: no program {prog} here")

    def run_block(self, block):
        """The block's commands in one shell, as a reader pastes them (a job
        started with & lives until the block ends); the first that fails ends it."""
        self.workspace()
        script, shown = [], []
        for command in block.commands():
            is_stand_run = re.search(r"(^|\s)build/bin/stand run\s", command) is not None
            if block.mode == "check" and not is_stand_run:
                self.program_exists(block, command)
                continue
            print(f"  $ {command}")
            command = self.as_run(command, block.mode)
            print(f"    as run: {command}")
            shown.append(command)
            n = len(shown)
            script.append(f"{command}\n__s=$?; echo \"{STATUS_TAG} {n} $__s\"; "
                          f"[ $__s -eq 0 ] || exit $__s")
        if script:
            self.run_script(block, shown, "\n".join(script))

    def run_script(self, block, shown, script):
        env = dict(os.environ, TMPDIR=os.path.join(self.work, "tmp"))
        p = subprocess.Popen(["bash", "-c", script], cwd=self.work, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, start_new_session=True)
        began = time.monotonic()
        try:
            out, _ = p.communicate(timeout=COMMAND_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
            out += f"\n(no end within {COMMAND_TIMEOUT_S} s)"
        try:
            os.killpg(p.pid, 15)  # what the block left running in the background
        except ProcessLookupError:
            pass
        done, lines = {}, []
        for line in out.split("\n"):
            m = re.match(rf"^{STATUS_TAG} (\d+) (\d+)$", line)
            if m:
                done[int(m.group(1))] = int(m.group(2))
                print(f"    command {m.group(1)}: exit {m.group(2)}")
            else:
                lines.append(line)
        print(f"    the block took {time.monotonic() - began:.1f} s")
        for i, command in enumerate(shown, 1):
            if done.get(i, 1) != 0:
                tail = "\n".join("\n".join(lines).rstrip().split("\n")[-30:])
                status = f"exited {done[i]}" if i in done else "did not finish"
                self.fail(f"{block.where()}: `{command}` {status}:\n{tail}")
                break

    def cleanup(self):
        if self.work:
            shutil.rmtree(self.work, ignore_errors=True)


def load_json(path):
    text = open(path).read()
    return json.loads(re.sub(r"(?m)^\s*//.*$", "", text))


def check(src, build, go, pages, run=True):
    checker = Checker(os.path.abspath(src), os.path.abspath(build), go)
    try:
        for page in pages:
            blocks, unmarked, prose = read_page(checker.src, page)
            for where in unmarked:
                checker.fail(f"{where}: a sh block without a doc-commands marker (run, check or skip: REASON)")
            for ticked in re.findall(r"`([^`\n]+)`", prose):
                checker.check_paths(f"{page} (text)", ticked)
            for block in blocks:
                print(f"{block.where()}: {block.mode}" + (f" ({block.reason})" if block.reason else ""))
                checker.check_paths(block.where(), block.text)
                checker.check_config_kinds(block)
                if block.mode in ("run", "check") and run:
                    checker.run_block(block)
    finally:
        checker.cleanup()
    for path in sorted(checker.not_checked):
        print(f"not checked: {path}")
    print(f"check_doc_commands.py: {len(checker.failures)} failure(s)")
    return 1 if checker.failures else 0


SELF_TEST_PAGE = """# A page with every fault the check is for

<!-- doc-commands: run -->
```sh
true
sh -c 'exit 3'
```

<!-- doc-commands: run -->
```sh
sleep 30 &
kill %1
```

```sh
echo a block without a marker
```

<!-- doc-commands: skip: a real panel -->
```sh
tests/no-such-script.sh OUT
```

<!-- doc-commands: skip: a path another step makes -->
```sh
ls build/real/podman
```

The prose names `scenarios/no-such-scenario.json` and `tests/relocate_ports.py`.
"""


def self_test():
    """The check on a page with one fault of each kind: each named, and nothing else."""
    with tempfile.TemporaryDirectory(prefix="stand-doc-commands-self.") as d:
        src, build = os.path.join(d, "src"), os.path.join(d, "build")
        os.makedirs(os.path.join(src, "tests"))
        os.makedirs(build)
        here = os.path.dirname(os.path.abspath(__file__))
        shutil.copy(os.path.join(here, "..", "relocate_ports.py"), os.path.join(src, "tests"))
        open(os.path.join(src, "page.md"), "w").write(SELF_TEST_PAGE)
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--source", src, "--build", build,
                            "--page", "page.md"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout)
    expected = ["page.md:4: `sh -c 'exit 3'` exited 3", "page.md:15: a sh block without a doc-commands marker",
                "page.md:20: names tests/no-such-script.sh, which does not exist",
                "page.md (text): names scenarios/no-such-scenario.json, which does not exist",
                "check_doc_commands.py: 4 failure(s)"]
    missing = [e for e in expected if e not in p.stdout]
    if p.returncode != 1 or missing:
        print(f"self-test: exit {p.returncode} (expected 1); missing from the output: {missing}")
        return 1
    print("self-test: every fault named, exit 1")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--build", default=None, help="the build directory (default: SOURCE/build)")
    ap.add_argument("--no-go", action="store_true", help="Go was not found when the build was configured")
    ap.add_argument("--page", action="append", help="a page, relative to SOURCE (repeatable; default: the panel pages)")
    ap.add_argument("--no-run", action="store_true", help="the markers, paths and config kinds only; run nothing")
    ap.add_argument("--self-test", action="store_true", help="check the check on a page with one fault of each kind")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    build = args.build or os.path.join(args.source, "build")
    return check(args.source, build, not args.no_go, args.page or PAGES, run=not args.no_run)


if __name__ == "__main__":
    sys.exit(main())
