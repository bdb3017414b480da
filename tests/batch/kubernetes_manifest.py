#!/usr/bin/env python3
"""The Kubernetes manifest of docs/batch/ is an Indexed Job whose pods run one search's shards.

    kubernetes_manifest.py --manifest FILE --syncstress PROGRAM

Reads the manifest with PyYAML (Debian's python3-yaml, which scripts/setup installs) and checks
that it is a batch/v1 Job in Indexed completion mode whose one container runs
`sh -c "syncstress run ... --shard auto/N ... --out PATH"` with N equal to its completions and
PATH on a volume the container mounts. Then it does what the Job's pods do: runs
that command once per index, with JOB_COMPLETION_INDEX set and a temporary folder for the volume,
merges the N reports and checks that the merge counts what the same command without --shard
counts (same_totals.py).
"""

import argparse
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

# Importing same_totals would leave its bytecode in the source tree.
sys.dont_write_bytecode = True
import same_totals  # noqa: E402 (after the line above)

try:
    import yaml
except ImportError:
    sys.exit("kubernetes_manifest.py: needs PyYAML (Debian's python3-yaml; scripts/setup "
             "installs it) for " + sys.executable)


class ManifestError(Exception):
    """What makes the manifest not the Indexed Job docs/model-checking.md says it is."""


def expect(condition, message):
    if not condition:
        raise ManifestError(message)


def split_long_options(argv):
    """argv with each `--name=value` as `--name value`, as the command line reads both."""
    out = []
    for arg in argv:
        out.extend(arg.split("=", 1) if arg.startswith("--") and "=" in arg else [arg])
    return out


def option(argv, name):
    """The value of option `name` in argv (split by split_long_options) and the index of that
    value; the option must be there exactly once."""
    found = [i + 1 for i, arg in enumerate(argv[:-1]) if arg == name]
    expect(len(found) == 1, f"the command gives {name} {len(found)} times, not once: {argv}")
    return argv[found[0]], found[0]


def shard_command(job):
    """The container's command as argv (the `sh -c` string split as sh splits it), the mount
    path its --out writes under and the Job's completions. Checks the Job's shape on the way."""
    expect(job.get("apiVersion") == "batch/v1", f"apiVersion {job.get('apiVersion')!r}")
    expect(job.get("kind") == "Job", f"kind {job.get('kind')!r}, not Job")
    spec = job["spec"]
    expect(spec.get("completionMode") == "Indexed",
           f"completionMode {spec.get('completionMode')!r}, not Indexed (no JOB_COMPLETION_INDEX)")
    completions = spec.get("completions")
    expect(isinstance(completions, int) and completions >= 1, f"completions {completions!r}")
    parallelism = spec.get("parallelism", 1)
    expect(isinstance(parallelism, int) and 1 <= parallelism <= completions,
           f"parallelism {parallelism!r} with {completions} completions")
    pod = spec["template"]["spec"]
    # Kubernetes refuses a Job whose pods restart Always; the default is Always.
    expect(pod.get("restartPolicy") in ("Never", "OnFailure"),
           f"restartPolicy {pod.get('restartPolicy')!r}: a Job's pods need Never or OnFailure")
    containers = pod["containers"]
    expect(len(containers) == 1, f"{len(containers)} containers, not one")
    command = containers[0]["command"]
    expect(len(command) == 3 and command[:2] == ["sh", "-c"],
           f"command {command!r} is not [sh, -c, ...] (sh expands $JOB_COMPLETION_INDEX)")
    argv = split_long_options(shlex.split(command[2]))
    expect(argv[:2] == ["syncstress", "run"], f"the command runs {argv[:2]}, not syncstress run")
    shard, _ = option(argv, "--shard")
    expect(shard == f"auto/{completions}",
           f"--shard {shard}, but the Job has {completions} completions: auto/{completions}")
    out, _ = option(argv, "--out")
    volumes = {v["name"] for v in pod.get("volumes", [])}
    mounts = [m for m in containers[0].get("volumeMounts", []) if m["name"] in volumes]
    mount = next((m for m in mounts if out.startswith(m["mountPath"].rstrip("/") + "/")), None)
    expect(mount is not None, f"--out {out} is on none of the volumes the container mounts")
    return argv, mount["mountPath"].rstrip("/"), completions


def run(argv):
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ManifestError(f"{shlex.join(argv)} exited {result.returncode}: {result.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", required=True, type=pathlib.Path)
    parser.add_argument("--syncstress", required=True)
    args = parser.parse_args()
    try:
        with open(args.manifest, encoding="utf-8") as f:
            argv, mount_path, completions = shard_command(yaml.safe_load(f))
        with tempfile.TemporaryDirectory(prefix="syncstress-k8s.") as work:
            volume = pathlib.Path(work) / "volume"
            volume.mkdir()
            out, out_at = option(argv, "--out")
            reports = []
            for index in range(completions):
                os.environ["JOB_COMPLETION_INDEX"] = str(index)
                report = str(volume) + os.path.expandvars(out)[len(mount_path):]
                shard_argv = [args.syncstress, *argv[1:]]
                shard_argv[out_at] = report
                run(shard_argv)
                reports.append(report)
            del os.environ["JOB_COMPLETION_INDEX"]
            expect(len(set(reports)) == completions, f"the pods' reports collide: {reports}")
            merged = os.path.join(work, "merged.json")
            run([args.syncstress, "merge", *reports, "--quiet", "--out", merged])
            _, shard_at = option(argv, "--shard")
            whole = os.path.join(work, "whole.json")
            whole_argv = [args.syncstress, *argv[1:]]
            whole_argv[out_at] = whole
            del whole_argv[shard_at - 1:shard_at + 1]
            run(whole_argv)
            found = same_totals.differences(same_totals.read(whole), same_totals.read(merged))
            expect(not found, "the merged shards do not count what the unsharded run counts:\n  "
                   + "\n  ".join(found))
    except ManifestError as e:
        print(f"kubernetes_manifest.py: {args.manifest}: {e}", file=sys.stderr)
        return 1
    print(f"{args.manifest}: an Indexed Job of {completions} shards; run and merged, they count "
          "what the unsharded run counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
