#!/usr/bin/env python3
"""Tegula, HPTT, XLA and OpenBLAS on the same relayout cells, taking turns, so that all see the same machine.

On a shared host the speed of one program drifts by more than the differences being measured, over
seconds and from one process to the next. A table made of one run of each side, minutes apart,
compares two moments as much as two libraries. This script runs, for each round and each cell
(case, pages, threads), a JMH fork of Tegula with ESTIMATE plans, one with MEASURE plans, then
HPTT's driver (MEASURE plans) on the same case, one after the other, and reports per cell the median
over the rounds of each side's GB/s and of the per-round ratio Tegula MEASURE / HPTT MEASURE, with
its smallest and largest value.

GB/s here are bytes of the array (one side) per second, as in the report's results table.

  python3 jmh/peers/paired.py --hptt PATH/hptt_driver [--xla] [--openblas] [--rounds 5] [--cell f32_4d_3210:huge:1 ...]

With --xla each round also times XLA's TransposePlan (jax.device_put of a transposed NumPy view on
the CPU device), and with --openblas OpenBLAS's cblas_somatcopy (2-D cases only, the copy NumPy's
wheel bundles), each in a fresh process of xla_blas_cases.py right after HPTT, on the same case,
pages and threads; their columns and their ratios to Tegula MEASURE join the table. Without --hptt the
HPTT columns are empty.

Cells whose case HPTT does not have (bf16) run Tegula only. With --plain-stores each round also runs
HPTT's plan with plain stores in place of its non-temporal (streaming) ones, which Java cannot issue,
and a further table sets Tegula's MEASURE against that. With --walks each round's line names the
walk the MEASURE fork chose (a cell whose MEASURE column varies from round to round may be the
planner choosing differently, or the host). Where bf16_8192x8192_T and
f32_8192x8192_T run with the same pages and threads, a second table gives bf16's GB/s over f32's per
round (each side's faster planning mode): name those cells next to each other, so that the two run
minutes, not a whole round, apart. Needs ./run bench (the JMH jar) and the
HPTT driver built as jmh/peers/README.md says, with LD_LIBRARY_PATH set for it where needed.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HPTT_CASES = {"f32_8192x8192_T", "f32_3d_210", "f32_3d_102", "f32_3d_021", "f32_4d_3210", "f32_4d_0231"}
BYTES = {"f32_8192x8192_T": 256 << 20, "bf16_8192x8192_T": 128 << 20, "f32_3d_210": 256 << 20,
         "f32_3d_102": 256 << 20, "f32_3d_021": 256 << 20, "f32_4d_3210": 64 << 20, "f32_4d_0231": 64 << 20}


def tegula(case, pages, threads, warmup, iterations):
    """{planning: GB/s} of one JMH fork per planning mode (median of the measured iterations), and
    under "walk" the walk the MEASURE fork's plan for these threads chose, as its setup printed it."""
    bench = "RelayoutBench.relayout2$" if threads == 2 else "RelayoutBench.relayout$"
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    cmd = [os.path.join(ROOT, "run"), "bench", bench, "-p", "relayoutCase=" + case, "-p", "pages=" + pages,
           "-p", "used=false", "-p", "planning=estimate,measure", "-f", "1", "-wi", str(warmup), "-w", "1s",
           "-i", str(iterations), "-r", "500ms", "-rf", "json", "-rff", out]
    p = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    with open(out) as f:
        results = json.load(f)
    os.unlink(out)
    gbs = {"walk": chosen_walk(p.stdout, threads)}
    for r in results:
        ms = statistics.median(x for fork in r["primaryMetric"]["rawData"] for x in fork)
        gbs[r["params"]["planning"]] = BYTES[case] / (ms * 1e6)
    return gbs


def chosen_walk(log, threads):
    """{return the walk of the MEASURE fork's plan for this thread count, from the JMH log, or "?"}:
    JMH heads each fork's output with its parameters, and the fork's setup prints its plans
    ("# plan: ..." for one thread, "# plan for two threads: ...")."""
    prefix = "# plan for two threads: " if threads == 2 else "# plan: "
    measure = False
    for line in log.splitlines():
        if line.startswith("# Parameters:"):
            measure = "planning = measure" in line
        elif measure and line.startswith(prefix):
            w = re.search(r"walk (.*?) \(", line)
            if w:
                return w.group(1)
    return "?"


def hptt(driver, case, pages, threads, streaming=True):
    """HPTT MEASURE GB/s (array bytes) on the case, a fresh process; plain stores where not streaming."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    cmd = [driver, "--threads", str(threads), "--pages", pages, "--case", case]
    if not streaming:
        cmd.append("--no-streaming")
    p = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    for line in p.stdout.splitlines():
        m = re.match(r"\| (\S+) \| ([0-9.]+) \|", line)
        if m and m.group(1) == case:
            return float(m.group(2)) / 2   # the driver counts bytes read + written
    raise RuntimeError("no result for " + case + " in:\n" + p.stdout)


def xla_blas(peer, case, pages, threads, reps, scale=1):
    """GB/s (array bytes) of XLA's TransposePlan or OpenBLAS's somatcopy on the case, a fresh process;
    None where the peer does not run the case (OpenBLAS: 2-D only)."""
    cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "xla_blas_cases.py"),
           "--peer", peer, "--case", case, "--pages", pages, "--threads", str(threads), "--reps", str(reps)]
    if scale != 1:
        cmd += ["--scale", str(scale)]
    p = subprocess.run(cmd, check=True, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        m = re.match(r"\| (\S+) \| ([0-9.]+) \|", line)
        if m and m.group(1) == case:
            return float(m.group(2)) / 2   # the script counts bytes read + written
    return None


def fmt(x):
    return f"{x:.2f}" if x else "–"


def ratio(runs, i, j):
    """{return "median (min–max)" of runs[k][i] / runs[k][j] over the rounds, or "–"}"""
    r = [x[i] / x[j] for x in runs if x[i] and x[j]]
    return f"{statistics.median(r):.2f} ({min(r):.2f}–{max(r):.2f})" if r else "–"


def med(runs, i):
    v = [x[i] for x in runs if x[i]]
    return statistics.median(v) if v else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hptt", help="path of the built hptt_driver (without it: no HPTT columns)")
    ap.add_argument("--xla", action="store_true", help="also time XLA's TransposePlan (jax.device_put), each round")
    ap.add_argument("--openblas", action="store_true",
                    help="also time OpenBLAS's cblas_somatcopy (2-D cases), each round")
    ap.add_argument("--peer-reps", type=int, default=15, help="timed runs of XLA and OpenBLAS per round (median)")
    ap.add_argument("--peer-scale", type=int, default=1,
                    help="divide XLA's and OpenBLAS's dimensions by this: a quick check of the script, no figures")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=4, help="JMH warmup iterations of 1 s")
    ap.add_argument("--iterations", type=int, default=6, help="JMH measurement iterations of 500 ms")
    ap.add_argument("--cell", action="append", help="CASE:PAGES:THREADS, e.g. f32_4d_3210:huge:1")
    ap.add_argument("--plain-stores", action="store_true",
                    help="also run HPTT's plan with plain stores in place of its streaming ones, each round")
    ap.add_argument("--walks", action="store_true",
                    help="also print, each round, the walk the MEASURE fork's plan chose")
    a = ap.parse_args()
    cells = [(c.split(":")[0], c.split(":")[1], int(c.split(":")[2])) for c in (a.cell or [])]
    if not cells:
        sys.exit("paired.py: name at least one --cell CASE:PAGES:THREADS")
    rows = {cell: [] for cell in cells}
    for r in range(a.rounds):
        for cell in cells:
            case, pages, threads = cell
            t = tegula(case, pages, threads, a.warmup, a.iterations)
            h = hptt(a.hptt, case, pages, threads) if a.hptt and case in HPTT_CASES else None
            plain = hptt(a.hptt, case, pages, threads, False) if a.plain_stores and h else None
            x = xla_blas("xla", case, pages, threads, a.peer_reps, a.peer_scale) if a.xla and case in HPTT_CASES else None
            o = (xla_blas("openblas", case, pages, threads, a.peer_reps, a.peer_scale)
                 if a.openblas and case in HPTT_CASES else None)
            rows[cell].append((t["estimate"], t["measure"], h, plain, x, o))
            print(f"# round {r + 1} {case} {pages} {threads}T: Tegula ESTIMATE {t['estimate']:.2f}, "
                  f"MEASURE {t['measure']:.2f}, HPTT MEASURE " + fmt(h)
                  + (f", HPTT plain stores {plain:.2f}" if plain else "")
                  + (", XLA TransposePlan " + fmt(x) if a.xla else "")
                  + (", OpenBLAS somatcopy " + fmt(o) if a.openblas else "") + " GB/s"
                  + (f"; MEASURE chose {t['walk']}" if a.walks else ""), flush=True)
    print("| case | pages | threads | rounds | Tegula ESTIMATE | Tegula MEASURE | HPTT MEASURE "
          "| MEASURE ÷ HPTT, median (min–max) | ESTIMATE ÷ HPTT, median (min–max) "
          "| XLA TransposePlan | MEASURE ÷ XLA | OpenBLAS somatcopy | MEASURE ÷ OpenBLAS |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|---|---:|---|")
    for (case, pages, threads), runs in rows.items():
        est = statistics.median(x[0] for x in runs)
        meas = statistics.median(x[1] for x in runs)
        print(f"| {case} | {pages} | {threads} | {len(runs)} | {est:.2f} | {meas:.2f} | {fmt(med(runs, 2))} "
              f"| {ratio(runs, 1, 2)} | {ratio(runs, 0, 2)} | {fmt(med(runs, 4))} | {ratio(runs, 1, 4)} "
              f"| {fmt(med(runs, 5))} | {ratio(runs, 1, 5)} |")
    if a.plain_stores:
        print()
        print("| case | pages | threads | rounds | HPTT MEASURE | HPTT MEASURE, plain stores | Tegula MEASURE "
              "| Tegula MEASURE ÷ HPTT plain stores, median (min–max) |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        for (case, pages, threads), runs in rows.items():
            if runs[0][3] is None:
                continue
            rp = [x[1] / x[3] for x in runs]
            print(f"| {case} | {pages} | {threads} | {len(runs)} | {statistics.median(x[2] for x in runs):.2f} "
                  f"| {statistics.median(x[3] for x in runs):.2f} | {statistics.median(x[1] for x in runs):.2f} "
                  f"| {statistics.median(rp):.2f} ({min(rp):.2f}–{max(rp):.2f}) |")
    pairs = [(pages, threads) for (case, pages, threads) in rows
             if case == "bf16_8192x8192_T" and ("f32_8192x8192_T", pages, threads) in rows]
    if pairs:
        print()
        print("| bf16 8192² ÷ f32 8192² | pages | threads | rounds | bf16 GB/s | f32 GB/s "
              "| ratio per round, median (min–max) |")
        print("|---|---|---:|---:|---:|---:|---|")
        for pages, threads in pairs:
            b = [max(x[0], x[1]) for x in rows[("bf16_8192x8192_T", pages, threads)]]
            f = [max(x[0], x[1]) for x in rows[("f32_8192x8192_T", pages, threads)]]
            r = [x / y for x, y in zip(b, f)]
            print(f"| each side's faster mode | {pages} | {threads} | {len(r)} | {statistics.median(b):.2f} "
                  f"| {statistics.median(f):.2f} | {statistics.median(r):.2f} ({min(r):.2f}–{max(r):.2f}) |")


if __name__ == "__main__":
    main()
