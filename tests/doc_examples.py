#!/usr/bin/env python3
"""Runs every shell example of README.md and docs/*.md as written, and checks its exit code.

Each ```sh (or ```bash) block is a list of commands: comment lines and blank lines are
skipped, a line ending in `\\` goes on on the next line, a heredoc runs to its delimiter, and a
compound command (a multi-line `for`, `if`, a quoted string) runs to where bash reads it whole.
Output shown in the Markdown belongs in a ```text block: every line of a sh block is a command.

A marker on the last non-blank line before the block's fence says what its commands must do:

    <!-- doc-test: exit 1 -->              every command exits 1 (no marker: every one exits 0)
    <!-- doc-test: exit 0 1 1 -->          one code per command, in order
    <!-- doc-test: exit 1 -; skip: WHY --> a `-` is a command not run, and WHY says why
    <!-- doc-test: skip: WHY -->           the block is not run, and WHY says why
    <!-- doc-test: exit 0; needs: PROG --> not run (and said so) where PROG is not on the PATH

A block's commands run in order in one shell (a run, then the replay of its report), each with
its own time limit; the block stops at the first command that gives another code or runs out
of time, and the test fails naming the file and line of that command, with its output's tail.

Where they run: commands are written to run from the repository's root. They run from a scratch
folder that stands for it: a link to every top-level entry of the repository, except `build` (a
link to the build under test), `results` (links to results/'s entries but runs/, so that a report
written to the default place lands in the scratch folder) and `scripts` (links to its files). A
path under /tmp/ in a command is moved into the scratch folder too (parallel runs share nothing,
and nothing is left behind), and TMPDIR points there. With --syncstress, `scripts/syncstress` is a
stand-in that runs that program: CTest runs after the build, and a build inside a test would run
Ninja in a tree that another test (mutation.bar) may be building in.
"""

import argparse
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
SHELL_LANGUAGES = {"sh", "bash"}
HEREDOC = re.compile(r"(?<!<)<<(?!<)(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
# A path under /tmp/, not inside another path or word.
TMP_PATH = re.compile(r"(?<![\w./~$-])/tmp/")


class DocError(Exception):
    """Something in the Markdown that the test cannot read: a bad marker, a broken command."""


class Command:
    def __init__(self, path, line, text, expected, skip_reason):
        self.path = path                # the file as the report names it
        self.line = line                # 1-based line of the command's first line
        self.text = text                # the command, its lines joined by newlines
        self.expected = expected        # the exit code it must give, or None: not run
        self.skip_reason = skip_reason  # why, when it is not run

    def where(self):
        return f"{self.path}:{self.line}"

    def first_line(self):
        return self.text.splitlines()[0]


class Block:
    def __init__(self, path, line, commands, skip_reason):
        self.path = path
        self.line = line                # the fence's line
        self.commands = commands
        self.skip_reason = skip_reason  # set: the whole block is not run


def parse_marker(text, where):
    """(codes, reason) from a marker's text: codes is a list (ints and None for '-') or None;
    a reason with no codes skips the whole block."""
    codes, reason, missing = None, None, []
    # A reason may hold a ';': only one before a keyword starts a new part.
    for part in [p.strip() for p in re.split(r";\s*(?=exit\b|skip:|needs:)", text)]:
        if part.startswith("needs:"):
            programs = part[len("needs:"):].split()
            if not programs:
                raise DocError(f"{where}: 'needs:' names the programs a block needs")
            missing += [p for p in programs if shutil.which(p) is None]
        elif part.startswith("skip:"):
            reason = part[len("skip:"):].strip()
            if not reason:
                raise DocError(f"{where}: a skip marker must say why (skip: REASON)")
        elif part.startswith("exit ") or part == "exit":
            words = part.split()[1:]
            if not words:
                raise DocError(f"{where}: 'exit' needs a code per command, or one for all")
            codes = []
            for w in words:
                if w == "-":
                    codes.append(None)
                elif w.isdigit() and int(w) < 256:
                    codes.append(int(w))
                else:
                    raise DocError(f"{where}: '{w}' is not an exit code (0..255) or '-'")
        else:
            raise DocError(f"{where}: unknown marker '{part}' (exit CODES, skip: REASON)")
    if codes is not None and None in codes and reason is None:
        raise DocError(f"{where}: a command marked '-' is not run: say why (; skip: REASON)")
    if codes is not None and None not in codes and reason is not None:
        raise DocError(f"{where}: a skip reason, but every command runs (mark one '-')")
    if missing:
        return None, "needs " + ", ".join(missing) + ", which is not on the PATH"
    return codes, reason


def is_complete(text):
    """Whether bash reads `text` as whole commands; DocError for a syntax error."""
    result = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
    if result.returncode == 0:
        return True
    if "unexpected end of file" in result.stderr:
        return False
    raise DocError(result.stderr.strip())


def split_commands(path, first_line, lines):
    """The commands of a block's lines (first_line: the file's line of lines[0]), as
    (line, text) pairs."""
    commands, i = [], 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        start, taken = i, []
        where = f"{path}:{first_line + start}"
        while True:
            taken.append(lines[i])
            while taken[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                taken.append(lines[i])
            for strip_tabs, _, word in HEREDOC.findall(taken[-1]):
                while True:
                    i += 1
                    if i >= len(lines):
                        raise DocError(f"{where}: heredoc '{word}' never ends")
                    taken.append(lines[i])
                    if (lines[i].lstrip("\t") if strip_tabs else lines[i]) == word:
                        break
            try:
                if is_complete("\n".join(taken) + "\n"):
                    break
            except DocError as e:
                raise DocError(f"{where}: not a shell command: {e}")
            if i + 1 >= len(lines):
                raise DocError(f"{where}: the command never ends")
            i += 1
        commands.append((first_line + start, "\n".join(taken)))
        i += 1
    return commands


def expectations(codes, reason, count, where):
    """(exit code or None, skip reason) for each of a block's `count` commands."""
    if codes is None:
        return [(None, reason) if reason else (0, None)] * count
    if len(codes) == 1:
        codes = codes * count
    if len(codes) != count:
        raise DocError(f"{where}: the marker gives {len(codes)} exit codes for {count} commands")
    return [(code, None if code is not None else reason) for code in codes]


def parse_markdown(path, text):
    """Every sh and bash block of a Markdown text, with its commands and what they must do."""
    lines = text.split("\n")
    blocks, i, last_nonblank = [], 0, None
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip():
                if last_nonblank is not None and MARKER.match(lines[last_nonblank]):
                    raise DocError(f"{path}:{last_nonblank + 1}: a doc-test marker must come "
                                   "just before the code block it is about")
                last_nonblank = i
            i += 1
            continue
        indent, fence, language = m.group(1), m.group(2), m.group(3)
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if end == len(lines):
            raise DocError(f"{path}:{i + 1}: the code block never ends")
        marker = MARKER.match(lines[last_nonblank]) if last_nonblank is not None else None
        where = f"{path}:{last_nonblank + 1}" if marker else f"{path}:{i + 1}"
        if language in SHELL_LANGUAGES:
            codes, reason = parse_marker(marker.group(1), where) if marker else (None, None)
            body = [line[len(indent):] if line.startswith(indent) else line
                    for line in lines[i + 1:end]]
            pairs = split_commands(path, i + 2, body)
            commands = [Command(path, line, cmd, code, why) for (line, cmd), (code, why)
                        in zip(pairs, expectations(codes, reason, len(pairs), where))]
            blocks.append(Block(path, i + 1, commands, reason if codes is None else None))
        elif marker:
            raise DocError(f"{where}: a doc-test marker before a '{language or 'plain'}' "
                           "block, which is never run")
        last_nonblank = None
        i = end + 1
    return blocks


class Failure:
    def __init__(self, command, message, output):
        self.command, self.message, self.output = command, message, output

    def __str__(self):
        text = f"FAIL {self.command.where()}: {self.message}\n  $ " + \
            self.command.text.replace("\n", "\n    ")
        tail = self.output.rstrip("\n").split("\n")[-25:] if self.output.strip() else []
        if tail:
            text += "\n  output (last lines):\n" + "\n".join("    " + line for line in tail)
        return text


def block_script(commands, scratch, logs, status_fd):
    """The shell script of a block: each command with its output in logs/N.log, its start and
    exit code written to status_fd, and the script's end at the first code not expected."""
    script = ["set -o pipefail"]
    for n, c in enumerate(commands):
        script += [f"printf 'start {n}\\n' >&{status_fd}",
                   "{", TMP_PATH.sub(scratch.rstrip("/") + "/tmp/", c.text),
                   f"}} >'{logs}/{n}.log' 2>&1 </dev/null",
                   "__doc_test_rc=$?",
                   f"printf 'end {n} %s\\n' \"$__doc_test_rc\" >&{status_fd}",
                   f"[ \"$__doc_test_rc\" -eq {c.expected} ] || exit 0"]
    return "\n".join(script)


def run_block(block, cwd, env, scratch, limit, log):
    """Runs a block's commands in one shell from `cwd`; returns a Failure or None."""
    commands = [c for c in block.commands if c.expected is not None]
    if not commands:
        return None
    logs = tempfile.mkdtemp(prefix="logs-", dir=scratch)

    def output_of(n):
        try:
            with open(f"{logs}/{n}.log", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(["bash", "-c", block_script(commands, scratch, logs, write_fd)],
                            cwd=cwd, env=env, pass_fds=[write_fd], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    current, started, pending, failure = None, None, b"", None
    while failure is None:
        ready, _, _ = select.select([read_fd], [], [], 0.1)
        chunk = os.read(read_fd, 4096) if ready else b""
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            event, n, *code = line.decode().split()
            n = int(n)
            if event == "start":
                current, started = n, time.monotonic()
                continue
            c, code = commands[n], int(code[0])
            log(f"  {time.monotonic() - started:6.2f}s  exit {code:<3} {c.where()}  "
                f"{c.first_line()}")
            if code != c.expected:
                failure = Failure(c, f"exited {code}, expected {c.expected}", output_of(n))
            current = None
        if not chunk and proc.poll() is not None:
            if current is not None:
                failure = Failure(commands[current], "the shell ended inside it (an `exit`?)",
                                  output_of(current))
            break
        if current is not None and time.monotonic() - started > limit:
            failure = Failure(commands[current], f"still running after {limit:g} s, the time "
                              "limit of one command (mark it skip if it is meant to take longer)",
                              output_of(current))
    os.close(read_fd)
    for sig in (signal.SIGTERM, signal.SIGKILL):  # whatever the block left running
        try:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=3)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    proc.wait()
    return failure


def make_scratch_repository(root, build_dir, syncstress, scratch):
    """The folder commands run from, standing for the repository's root (see the top)."""
    repo = os.path.join(scratch, "repo")
    os.makedirs(repo)
    os.makedirs(os.path.join(scratch, "tmp"))
    for entry in sorted(os.listdir(root)):
        if entry not in ("build", "results", "scripts"):
            os.symlink(os.path.join(root, entry), os.path.join(repo, entry))
    if build_dir:
        os.symlink(build_dir, os.path.join(repo, "build"))
    for folder, leave_out in (("results", {"runs"}), ("scripts", set())):
        os.makedirs(os.path.join(repo, folder))
        source = os.path.join(root, folder)
        for entry in sorted(os.listdir(source)) if os.path.isdir(source) else []:
            if entry not in leave_out:
                os.symlink(os.path.join(source, entry), os.path.join(repo, folder, entry))
    if syncstress:
        stand_in = os.path.join(repo, "scripts", "syncstress")
        if os.path.lexists(stand_in):
            os.remove(stand_in)
        with open(stand_in, "w") as f:
            f.write(f"#!/bin/sh\n# doc_examples.py: the build under test, without building\n"
                    f"exec '{syncstress}' \"$@\"\n")
        os.chmod(stand_in, 0o755)
    return repo


def run_all(blocks, root, build_dir, syncstress, limit, log, keep):
    """Runs every block; (failures, commands run, skipped blocks and commands with why)."""
    scratch = tempfile.mkdtemp(prefix="doc-examples-")
    failures, ran, skipped = [], 0, []
    try:
        cwd = make_scratch_repository(root, build_dir, syncstress, scratch)
        env = dict(os.environ, TMPDIR=os.path.join(scratch, "tmp"))
        if build_dir:
            env["SYNCSTRESS_BUILD_DIR"] = build_dir
        for block in blocks:
            if block.skip_reason:
                skipped.append(f"{block.path}:{block.line}: {block.skip_reason}")
                continue
            skipped += [f"{c.where()}: {c.skip_reason}" for c in block.commands
                        if c.expected is None]
            failure = run_block(block, cwd, env, scratch, limit, log)
            ran += sum(1 for c in block.commands if c.expected is not None)
            if failure:
                failures.append(failure)
    finally:
        if keep:
            log(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return failures, ran, skipped


def expect_doc_error(text_or_marker, wanted, parse):
    try:
        parse(text_or_marker)
    except DocError as e:
        assert wanted in str(e), e
        return
    raise AssertionError(f"accepted: {text_or_marker!r}")


def self_test():
    """The parser and the runner on a small Markdown text with a command that fails."""
    sample = "\n".join([
        "# sample",                                    # 1
        "<!-- doc-test: exit 0 0 0 3 0 -->",           # 2
        "```sh",                                       # 3
        "# a comment, then a continued command",       # 4
        "echo one \\",                                 # 5
        "  two",                                       # 6
        "cat <<'EOF'",                                 # 7
        "not a command",                               # 8
        "EOF",                                         # 9
        "for i in 1 2; do",                            # 10
        "  echo $i",                                   # 11
        "done",                                        # 12
        "sh -c 'exit 2'   # gives 2, not 3",           # 13
        "echo never reached",                          # 14
        "```",                                         # 15
        "<!-- doc-test: skip: needs a cluster -->",    # 16
        "```bash",                                     # 17
        "false",                                       # 18
        "```",                                         # 19
        "```text",                                     # 20
        "output, never run",                           # 21
        "```",                                         # 22
    ])
    blocks = parse_markdown("sample.md", sample)
    assert len(blocks) == 2, len(blocks)
    lines = [(c.line, c.expected) for c in blocks[0].commands]
    assert lines == [(5, 0), (7, 0), (10, 0), (13, 3), (14, 0)], lines
    assert blocks[1].skip_reason == "needs a cluster", blocks[1].skip_reason
    with tempfile.TemporaryDirectory(prefix="doc-examples-self-test-") as empty_root:
        failures, ran, skipped = run_all(blocks, empty_root, None, None, 10, lambda s: None, False)
    assert ran == 5 and skipped == ["sample.md:17: needs a cluster"], (ran, skipped)
    assert len(failures) == 1, [str(f) for f in failures]
    assert str(failures[0]).startswith("FAIL sample.md:13: exited 2, expected 3"), failures[0]

    parse = lambda text: parse_markdown("bad.md", text)
    expect_doc_error(sample.replace("exit 0 0 0 3 0", "exit 0 0 0 3"),
                     "bad.md:2: the marker gives 4 exit codes for 5 commands", parse)
    expect_doc_error("<!-- doc-test: exit 1 -->\nprose\n```sh\ntrue\n```\n", "bad.md:1", parse)
    expect_doc_error("```sh\nif true; then\n```\n", "bad.md:2: the command never ends", parse)
    marker = lambda text: parse_marker(text, "m.md:1")
    for bad, wanted in (("exit 1 -", "say why"), ("exit one", "not an exit code"),
                        ("skip:", "must say why"), ("maybe", "unknown marker"),
                        ("exit 1; skip: slow", "every command runs"), ("needs:", "names the")):
        expect_doc_error(bad, wanted, marker)
    assert marker("exit 0; needs: sh no-such-program-x") == (
        None, "needs no-such-program-x, which is not on the PATH")
    assert marker("exit 1 -; skip: slow; see below") == ([1, None], "slow; see below")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root_default = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="Markdown files (default: README.md and docs/*.md of --root)")
    parser.add_argument("--root", default=root_default, help="the repository (default: this one)")
    parser.add_argument("--syncstress", metavar="BINARY",
                        help="run scripts/syncstress as this program, without its build step")
    parser.add_argument("--build-dir", metavar="DIR",
                        help="the build that build/ stands for (default: the folder of "
                             "--syncstress, else the repository's build/)")
    parser.add_argument("--timeout", type=float, default=20,
                        help="seconds each command may take (default 20)")
    parser.add_argument("--list", action="store_true",
                        help="print every command with its expected exit code, run nothing")
    parser.add_argument("--self-test", action="store_true",
                        help="check the parser and the runner on a sample, and stop")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()

    self_test()
    if args.self_test:
        print("doc_examples.py: self-test passed")
        return 0
    root = os.path.abspath(args.root)
    files = args.files or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    syncstress = os.path.abspath(args.syncstress) if args.syncstress else None
    build_dir = args.build_dir or (os.path.dirname(syncstress) if syncstress
                                   else os.path.join(root, "build"))
    blocks = []
    try:
        for f in files:
            path = f if os.path.isabs(f) else os.path.join(root, f)
            with open(path) as handle:
                blocks += parse_markdown(os.path.relpath(path, root), handle.read())
    except (DocError, OSError) as e:
        print(f"FAIL {e}", file=sys.stderr)
        return 1
    if args.list:
        for b in blocks:
            for c in b.commands:
                why = b.skip_reason or c.skip_reason
                state = f"skip: {why}" if c.expected is None else f"exit {c.expected}"
                print(f"{c.where()}\t{state}\t{c.first_line()}")
        return 0
    started = time.monotonic()
    failures, ran, skipped = run_all(blocks, root, os.path.abspath(build_dir), syncstress,
                                     args.timeout, print, args.keep)
    for s in skipped:
        print(f"  skipped {s}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"doc_examples.py: {ran} commands in {len(files)} files, {len(failures)} failed, "
          f"{len(skipped)} skipped, {time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
