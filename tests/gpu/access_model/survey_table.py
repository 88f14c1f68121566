#!/usr/bin/env python3
"""The access model's figures for a list of FFT plans, as a markdown table.

    tests/gpu/access_model/survey_table.py BUILD OUT.md

Runs survey.sh (fft_access_survey on Oclgrind with the model) for batched c2c float and double
sizes (about 8192 points each) and two-pass plans, each with local memory padded as the shapes
choose and unpadded (--pad-local 0), and writes per plan: the bank passes of its local loads and
stores over the least they need (the worst launch), the sector efficiency of its data sides
(the least over the launches) and of its tables (all their loads together: the bytes they ask
for over the sectors' bytes they touch, so the large tables weigh most). Takes a few minutes."""
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = ([("f32", n) for n in (2, 3, 4, 6, 8, 9, 12, 16, 25, 32, 60, 64, 97, 100, 125, 128, 243, 256, 1000, 1024,
                               2048, 4096, 8192)] +
         [("f64", n) for n in (8, 64, 256, 1024, 2048, 4096)] +
         [("f32", 65536)] +
         # Rader's (131, 1021) and Bluestein's (2039 in the kernel, 4093 in three fused passes)
         [("f32", n) for n in (131, 1021, 2039, 4093)])


def run(build, prec, n, pad):
    points = 8192 if prec == "f32" else 4096
    batch = max(1, points // n)
    args = [os.path.join(HERE, "survey.sh"), build, "--pad-local", str(pad)]
    if prec == "f64":
        args.append("--double")
    text = subprocess.run(args + [str(batch), str(n)], check=True, capture_output=True, text=True).stdout
    plan = text.splitlines()[0]
    conflicts = {"load": 1.0, "store": 1.0}
    for side, factor in re.findall(r"local (load|store) .*?, ([0-9.]+)x the least", text):
        conflicts[side] = max(conflicts[side], float(factor))
    data = []
    table_asked = table_fetched = 0.0  # bytes, over every table load
    buffer_is_data = False
    for line in text.splitlines():
        m = re.match(r"\s+buffer \d+ \((\d+) bytes(, data)?\)", line)
        if m:
            buffer_is_data = bool(m.group(2))
            continue
        m = re.match(r"\s+(load|store)\s+(\d+) requests\s+([0-9.]+) sectors each.*sector efficiency\s+([0-9.]+)%", line)
        if m:
            if buffer_is_data:
                data.append(float(m.group(4)))
            else:
                fetched = int(m.group(2)) * float(m.group(3)) * 32
                table_fetched += fetched
                table_asked += fetched * float(m.group(4)) / 100
    tables = 100 * table_asked / table_fetched if table_fetched else None
    return plan, batch, conflicts, min(data) if data else None, tables


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    rows = []
    for prec, n in CASES:
        padded = run(build, prec, n, 1)
        unpadded = run(build, prec, n, 0)
        rows.append((prec, n, padded, unpadded))
        print(prec, n, padded[2], unpadded[2], padded[3], padded[4], flush=True)
    pct = lambda v: "-" if v is None else "%.0f%%" % v
    L = ["# GPU FFT access model (Oclgrind, no GPU), %s" % datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
         "",
         "- what: tests/gpu/access_model (docs/ARCHITECTURE.md, \"Access model\"): warps of 32 work-items; global "
         "loads and stores as 32-byte sectors; local memory as 32 banks of 4 bytes. Not a timing.",
         "- git commit: %s; Oclgrind 21.10 simulating (the figures do not depend on the machine)" % commit,
         "- command: tests/gpu/access_model/survey_table.py %s %s" % (build, out),
         "- each plan: c2c forward, packed batch of about 8192 points (float) or 4096 (double); local memory padded "
         "as the shapes choose (the default) and unpadded (--pad-local 0)",
         "- bank passes: the most passes through the banks of any launch's local loads or stores over the least "
         "they need (1.00: no bank conflicts); sectors, padded: the least sector efficiency of the data sides "
         "(input, output, scratch), and of the tables' loads together (twiddles, chirps, Rader's and the codelets' "
         "constants: bytes asked for over the sectors' bytes)",
         "",
         "| precision | N | batch | plan | bank passes load / store, default | unpadded | data sectors | "
         "table sectors |",
         "|---|---|---|---|---|---|---|---|"]
    for prec, n, p, u in rows:
        L.append("| %s | %d | %d | %s | %.2f / %.2f | %.2f / %.2f | %s | %s |" % (
            prec, n, p[1], p[0].split(": ", 1)[-1], p[2]["load"], p[2]["store"], u[2]["load"], u[2]["store"],
            pct(p[3]), pct(p[4])))
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
