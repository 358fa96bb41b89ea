"""Runs every MaxGraph pass and pipeline that `max-opt --help` lists, with
no options and with representative values of each of its options, on
modules that hold no maxgraph op (an empty one, one of upstream ops only)
and on a small maxgraph graph. Each run must exit 0, or exit 1 with an
error that names where it is (a location in the input, or the pass option
it could not parse); a signal, a sanitizer report, a stack dump or an exit
without a message is a failure.

    every_pass.py MAX_OPT INPUTS_DIR

Prints one line per failure and `every-pass: N runs, N passes, N failed`.
"""

import concurrent.futures
import os
import re
import subprocess
import sys

MAX_OPT, INPUTS = sys.argv[1], sys.argv[2]
MODULES = [os.path.join(INPUTS, name) for name in
           ("empty.mlir", "upstream-only.mlir", "small-graph.mlir")]

# Values that mean something to a pass, tried beside the generic ones.
MEANINGFUL = {
    "dims": ["batch=8", "batch=0", "batch=8,seq=1", "batch=-1", "batch=x",
             "=8", "batch", "batch=99999999999999999999"],
    "kind": ["cpu", "gpu", "tpu"],
    "target": ["cuda", "opencl", "rocm"],
    "format": ["isa", "bin", "fatbin", "text"],
    "chip": ["sm_90", "sm_1"],
    "toolkit": ["", "/nonexistent"],
    "llvm-spirv": ["", "/nonexistent/llvm-spirv"],
}
GENERIC = {
    "int": ["0", "-1", "1", "9223372036854775807"],
    "long": ["0", "-1", "9223372036854775807"],
    "uint": ["0", "1", "4294967295"],
    "ulong": ["0", "1", "18446744073709551615"],
    "string": ["", "x"],
    "number": ["0", "-1"],
}


def listed_passes():
    """(name, [(option, type)]) of every maxgraph pass and pipeline."""
    help_text = subprocess.run([MAX_OPT, "--help"], capture_output=True,
                               text=True, check=True).stdout
    passes, current = [], None
    for line in help_text.splitlines():
        match = re.match(r"^ {6}--([\w-]+)\s", line)
        if match:
            name = match.group(1)
            current = None
            if "maxgraph" in name:
                current = (name, [])
                passes.append(current)
            continue
        option = re.match(r"^ {8}--([\w-]+)(?:=<(\w+)>)?\s", line)
        if option and current is not None:
            current[1].append((option.group(1), option.group(2) or "bool"))
    return passes


def runs_of(name, options):
    yield name, ""
    for option, kind in options:
        values = MEANINGFUL.get(option, GENERIC.get(kind, ["true", "false"]))
        for value in values:
            yield name, f"{option}={value}"


# A diagnostic at a place in the input (0:0 for a pass's own), or MLIR's
# parser of pass options.
LOCATED = re.compile(r"\.mlir:\d+:\d+: error:|<Pass-Options-Parser>")
CRASHED = re.compile(r"Stack dump|Sanitizer|runtime error:|Assertion|"
                     r"LLVM ERROR|PLEASE submit", re.M)


def run(pass_name, option, module):
    # The flag form: max-opt nests a pass anchored on another op (a graph, a
    # function) implicitly, as a user's command line would.
    command = [MAX_OPT, module, f"--{pass_name}" + (f"={option}" if option else "")]
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=120)
    except subprocess.TimeoutExpired:
        return f"{' '.join(command)}: hangs (over 120 s)"
    err = result.stderr
    if CRASHED.search(err):
        pass
    elif result.returncode == 0:
        return None
    elif result.returncode == 1 and LOCATED.search(err):
        return None
    return (f"{' '.join(command)}: exit {result.returncode}\n    " +
            "\n    ".join(err.strip().splitlines()[:12]))


def main():
    passes = listed_passes()
    names = [name for name, _ in passes]
    # The list must be the real one: a help format change that listed none
    # would otherwise pass.
    for expected in ("maxgraph-specialize-dims", "maxgraph-optimize",
                     "maxgraph-lower-to-cpu", "maxgraph-lower-to-gpu",
                     "convert-maxgraph-to-linalg", "maxgraph-map-to-gpu"):
        if expected not in names:
            print(f"every-pass: {expected} is not in max-opt --help")
            return 1
    jobs = []
    for name, options in passes:
        for pass_name, option in runs_of(name, options):
            modules = MODULES if not option else MODULES[1:2]
            for module in modules:
                jobs.append((pass_name, option, module))
    failures = []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for failure in pool.map(lambda job: run(*job), jobs):
            if failure:
                failures.append(failure)
                print("FAILED:", failure)
    print(f"every-pass: {len(jobs)} runs, {len(names)} passes, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
