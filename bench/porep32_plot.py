#!/usr/bin/env python3
"""czk — the plots of bench/porep32.sh from its folder of results:
  timeline.png   the stage timeline of one proof (the middle job of the first configuration): a row per
                 partition, synthesis / waiting for the GPU / GPU start / finish, seconds after submit
  sweep.png      s/proof (steady state) against czkd's peak RSS, one point per configuration
Needs matplotlib; exits 1 without it (the CSVs hold the same numbers)."""
import csv
import os
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed")
    sys.exit(1)


def main(d):
    rows = list(csv.DictReader(open(os.path.join(d, "porep32.csv"))))
    if not rows:
        print("no configurations in porep32.csv")
        return 1
    # the timeline of one proof
    name = rows[0]["config"]
    tl = [r for r in csv.reader(open(os.path.join(d, "timeline-%s.csv" % name))) if len(r) == 8]
    jobs = sorted({r[0] for r in tl})
    if jobs:
        job = jobs[len(jobs) // 2]
        parts = sorted((r for r in tl if r[0] == job), key=lambda r: int(r[1]))
        fig, ax = plt.subplots(figsize=(9, 0.45 * len(parts) + 1.5))
        for r in parts:
            p = int(r[1])
            s0, s1, q, g0, g1, f = (float(x) for x in r[2:])
            ax.barh(p, s1 - s0, left=s0, color="#4c72b0", label="synthesis" if p == 0 else None)
            ax.barh(p, g0 - s1, left=s1, color="#dddddd", label="waiting for the GPU" if p == 0 else None)
            ax.barh(p, g1 - g0, left=g0, color="#dd8452", label="GPU start" if p == 0 else None)
            ax.barh(p, max(f - g1, 0.01), left=g1, color="#55a868", label="finish" if p == 0 else None)
        ax.set_xlabel("seconds after submit")
        ax.set_ylabel("partition")
        ax.invert_yaxis()
        ax.set_title("%s: one proof's partitions (%s)" % (job, name))
        ax.legend(loc="lower right", fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "timeline.png"), dpi=110)
    # s/proof against peak RSS
    fig, ax = plt.subplots(figsize=(6, 4))
    for r in rows:
        try:
            x, y = float(r["peak_rss_gib"]), float(r["s_per_proof_steady"])
        except ValueError:
            continue
        ax.plot(x, y, "o", color="#4c72b0")
        ax.annotate(r["config"], (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("czkd peak RSS (GiB)")
    ax.set_ylabel("s per proof, steady state")
    ax.set_title("32 GiB PoRep C2 on one GPU: the sweep")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "sweep.png"), dpi=110)
    print("wrote timeline.png and sweep.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
