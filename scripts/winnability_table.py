#!/usr/bin/env python3
"""Regenerates demon's winnability table: every game under its default rules
and the main rule variants, over seeds 1..N, as Markdown and CSV beside the
raw per-deal reports.

    python3 scripts/winnability_table.py                 # solve what is missing, then the table
    python3 scripts/winnability_table.py --seeds 20000   # more seeds (reports are extended)
    python3 scripts/winnability_table.py --only canfield-any,storehouse-pysolfc
    python3 scripts/winnability_table.py --table-only    # just rebuild the table from the reports
    python3 scripts/winnability_table.py --only canfield-published --retry 30M   # settle unknown deals at 30 M nodes
    python3 scripts/winnability_table.py --only canfield-published --retry 1G    # then those still unknown, at 1 G

Each variant's deals go through `demon batch ... --csv results/winnability/NAME.csv
--resume`, so an interrupted run (Ctrl-C, a kill, the end of a session)
continues where it stopped, and a larger --seeds extends the reports. Deals
are limited by nodes, not time, so every verdict is reproducible on any
machine and under any load: UNKNOWN means "not decided within the node
limit", and the table shows the interval that holds whatever the unknown
deals are. With `--retry N`, a variant's unknown deals are then solved again
at N nodes (`demon batch --retry-unknown NAME.csv --csv NAME.retry.csv`,
resumable the same way, with demon's default search settings), and the table
reads each report with its retry folded in (`demon merge NAME.csv --retried
NAME.retry.csv`). A later `--retry` at a larger limit solves the deals
still unknown again (`NAME.retry2.csv`, from the unknown deals of
`NAME.retry.csv`, and so on), and the table folds every retry in, in order.

Needs only the Rust toolchain and Python 3 (standard library).
"""

import argparse
import datetime
import csv
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A copy of the binary, so that rebuilding during a long run changes nothing.
DEMON = os.path.join(ROOT, "target", "winnability", "demon")
# The binary of the current tree, which reads the reports for the table (any
# version's reading gives the same figures; the current one has every field).
READER = os.path.join(ROOT, "target", "release", "demon")

# Node limits per deal: a few seconds on one core of the recording machine
# for one deck; less for two decks, where most deals are not decided at any
# affordable limit yet (see results/README.md).
ONE_DECK = 2_000_000
TWO_DECKS = 250_000

# (name, game, options, node limit, published figure)
# A published figure is (percent, half-width of its 95% interval or None for
# a rounded figure, source, note).
VARIANTS = [
    ("canfield-any", "canfield", "--group-moves any", ONE_DECK, None),
    ("canfield-published", "canfield", "--group-moves any --tableau-wrap base", ONE_DECK,
     (71.245, 0.031, "Blake & Gent (Solvitaire), 10^7 deals",
      "any group moves, spaces from the reserve then any card; Solvitaire's tableau wraps like the "
      "foundations except onto the base rank (`--tableau-wrap base`), where canfield-any lets any "
      "King go on any Ace")),
    ("canfield", "canfield", "", ONE_DECK, None),
    ("storehouse-pysolfc", "storehouse", "--rules pysolfc", ONE_DECK,
     (44.0, None, "Wolter (politaire.com), 10^6 deals",
      "draw 1, 2 redeals; the figure is given rounded to 1%")),
    ("storehouse", "storehouse", "", ONE_DECK, None),
    ("easthaven", "easthaven", "", ONE_DECK, None),
    ("easthaven-published", "easthaven", "--worrying-back yes --deal-when-empty yes", ONE_DECK,
     (82.844, 0.100, "Blake & Gent (Solvitaire), 2x10^6 deals",
      "worrying back allowed, dealing allowed with empty piles")),
    ("chameleon", "chameleon", "", ONE_DECK, None),
    ("chameleon-pysolfc", "chameleon", "--rules pysolfc", ONE_DECK, None),
    ("rainbow", "rainbow", "", ONE_DECK, None),
    ("rainbow-pysolfc", "rainbow", "--rules pysolfc", ONE_DECK, None),
    ("selective-canfield", "selective-canfield", "", ONE_DECK, None),
    ("superior-canfield", "superior-canfield", "", ONE_DECK, None),
    ("canfield-pile-published", "canfield", "--group-moves pile --empty reserve-then-waste --tableau-wrap base", ONE_DECK,
     (67.562, 0.034, "Blake & Gent (Solvitaire), whole-pile Canfield",
      "Solvitaire's preset: only whole piles move between piles; spaces from the reserve, then the waste; "
      "its tableau wrap (`--tableau-wrap base`)")),
    ("double-canfield", "double-canfield", "", TWO_DECKS, None),
    ("variegated-canfield", "variegated-canfield", "", TWO_DECKS, None),
    ("american-toad", "american-toad", "", TWO_DECKS, None),
    ("double-easthaven", "double-easthaven", "", TWO_DECKS, None),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def commit():
    r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                       capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def record_version(out, name, version):
    """Notes in NAME.versions that this version of demon solved deals of the report."""
    versions = os.path.join(out, name + ".versions")
    seen = open(versions).read().split() if os.path.exists(versions) else []
    if version not in seen:
        with open(versions, "a") as f:
            f.write(version + "\n")


def run_batch(cmd, out, label, version, jobs):
    """Runs one `demon batch`, logging its wall time in runs.log (so the
    table can say what it took in all); stops the script if it failed or
    was interrupted."""
    print("$", " ".join(cmd[1:]), flush=True)
    start = datetime.datetime.now(datetime.timezone.utc)
    # An interrupt (Ctrl-C, or `kill -INT` to the process group) reaches
    # demon batch too, which saves its finished deals and exits 130. The
    # script lets the interrupt pass while it waits, so that it is not
    # stopped in the middle of the wait (subprocess.run would then kill the
    # batch 0.25 s later) and still logs the sitting below. A handler, not
    # SIG_IGN: an ignored signal would stay ignored in the batch after exec.
    previous = signal.signal(signal.SIGINT, lambda *_: None)
    try:
        r = subprocess.run(cmd, cwd=ROOT)
    finally:
        signal.signal(signal.SIGINT, previous)
    wall = (datetime.datetime.now(datetime.timezone.utc) - start).total_seconds()
    with open(os.path.join(out, "runs.log"), "a") as f:
        f.write(f"{start:%Y-%m-%dT%H:%M:%SZ} {label} commit={version} jobs={jobs} "
                f"wall={wall:.0f}s exit={r.returncode}\n")
    if r.returncode == 130:
        sys.exit("interrupted: run the script again to continue")
    if r.returncode != 0:
        sys.exit(f"demon batch failed for {label} (exit {r.returncode})")


def solve(v, seeds, jobs, memory, out, version):
    name, game, opts, nodes, _ = v
    report = os.path.join(out, name + ".csv")
    record_version(out, name, version)
    cmd = [DEMON, "batch", game, *opts.split(), "--seeds", f"1..{seeds}",
           "--max-nodes", str(nodes), "--jobs", str(jobs), "--max-memory", memory,
           "--csv", report,
           # The reports were made with one search path (before demon had
           # several) and without rollouts (before demon had them):
           # extending them otherwise would mix two kinds of unknown, and
           # `demon batch --resume` refuses it.
           "--cursors", "1", "--no-rollouts"]
    if os.path.exists(report):
        cmd.append("--resume")
        # Made while the best-first probes were on by default everywhere
        # (before demon could turn them off, and before they were off by
        # default in some games): resumed with them, as made.
        cmd += probes_as_made(report)
        cmd += waste_bound_as_made(report)
    run_batch(cmd, out, name, version, jobs)


def probes_as_made(report):
    """`--probes` where a report (`report`.run) was made with the
    best-first probes on, which its settings say by not naming
    `probes=off`: a report is resumed only with the settings it was made
    with, whatever demon's defaults are now."""
    return [] if "probes=off" in made_with(report) else ["--probes"]


def waste_bound_as_made(report):
    """`--waste-bound` or `--no-waste-bound`, as a report (`report`.run)
    was made: the bound on the last pass's waste is named in its settings
    when on, and its default changed (on where the stock is never turned
    over, since ed7502d), so a report is resumed with it as made."""
    return ["--waste-bound"] if "waste-bound=on" in made_with(report) else ["--no-waste-bound"]


def made_with(report):
    """The settings a report was made with (`report`.run, as `demon batch`
    writes them), word by word; none when it has no such file."""
    run_file = report + ".run"
    return open(run_file).read().split() if os.path.exists(run_file) else []


def parse_nodes(text):
    """A node count as demon reads it: digits with an optional K, M or G."""
    t = text.strip().upper()
    scale = {"K": 10**3, "M": 10**6, "G": 10**9}.get(t[-1:], 1)
    return int(t[:-1] if scale > 1 else t) * scale


def retry_file(out, name, level):
    """The report of a variant's retry at `level` (1: NAME.retry.csv, then
    NAME.retry2.csv, ...): each solves again the deals the one before left
    unknown (the first, those of NAME.csv), at a larger node limit."""
    return os.path.join(out, name + (".retry.csv" if level == 1 else f".retry{level}.csv"))


def retry_files(out, name):
    """The variant's retry reports that exist, in order."""
    files = []
    while os.path.exists(retry_file(out, name, len(files) + 1)):
        files.append(retry_file(out, name, len(files) + 1))
    return files


def retry(v, nodes, jobs, memory, out, version):
    """Solves the unknown deals of a variant's report again at `nodes` nodes:
    resumes its last retry when that is unfinished (at the same limit), or
    starts the next one (at a larger limit than the last) on the deals the
    last left unknown."""
    name, game, opts, _, _ = v
    report = os.path.join(out, name + ".csv")
    if not os.path.exists(report):
        sys.exit(f"{name}: no report to retry ({report}); solve it first")
    files = retry_files(out, name)
    level = len(files)
    if files:
        done, total = retry_progress(out, name, level)
        last = retry_limit(out, name, level)
        unfinished = done < total or retry_pending(out, name, level)
        if unfinished and last != parse_nodes(nodes):
            sys.exit(f"{name}: the retry at {last:,} nodes ({files[-1]}) is unfinished; "
                     f"continue it with --retry {last} first")
        if not unfinished:
            if last is not None and parse_nodes(nodes) <= last:
                print(f"{name}: already retried at {last:,} nodes", flush=True)
                return
            level += 1
    else:
        level = 1
    base = report if level == 1 else retry_file(out, name, level - 1)
    retried = retry_file(out, name, level)
    record_version(out, name, version)
    cmd = [DEMON, "batch", game, *opts.split(), "--retry-unknown", base,
           "--max-nodes", nodes, "--jobs", str(jobs), "--max-memory", memory, "--csv", retried]
    if os.path.exists(retried):
        # Resumed with rollouts as it was made: their default changed for
        # some games (off with one deck and unlimited redeals since
        # 2026-11-27), and `demon batch --resume` refuses a mix.
        cmd += ["--rollouts" if "rollouts=on" in made_with(retried) else "--no-rollouts", "--resume"]
        cmd += probes_as_made(retried)
        cmd += waste_bound_as_made(retried)
    label = name + (".retry" if level == 1 else f".retry{level}")
    run_batch(cmd, out, label, version, jobs)


def retry_limit(out, name, level):
    """The node limit of a variant's retry at `level`, or None when it has none."""
    run_file = retry_file(out, name, level) + ".run"
    if not os.path.exists(run_file):
        return None
    for field in open(run_file).read().split():
        if field.startswith("max-nodes="):
            return int(field.removeprefix("max-nodes="))
    return None


def retry_progress(out, name, level):
    """How many of the deals its retry at `level` takes up it has solved
    again (those the report, or the retry before, left unknown), and how
    many there are (a retry interrupted, to be continued, has fewer rows)."""
    base = os.path.join(out, name + ".csv") if level == 1 else retry_file(out, name, level - 1)
    with open(base, newline="") as f:
        total = sum(1 for r in csv.DictReader(f) if r["verdict"] == "unknown")
    with open(retry_file(out, name, level), newline="") as f:
        done = sum(1 for _ in csv.DictReader(f))
    return done, total


def retry_pending(out, name, level):
    """Whether a variant's retry at `level` was interrupted with finished
    rows still waiting in its side file: `demon merge` refuses to fold it
    in until it is resumed, so the table reads the retries before it."""
    return os.path.exists(retry_file(out, name, level) + ".pending")


def folded_retries(out, name):
    """The retries the table folds in: all but a last one with rows pending."""
    files = retry_files(out, name)
    if files and retry_pending(out, name, len(files)):
        files.pop()
    return files


def report_with_retry(out, name, tmp):
    """The variant's report with its retries folded in (a merged copy in
    `tmp`), or the report itself when it has none."""
    path = os.path.join(out, name + ".csv")
    files = folded_retries(out, name)
    if not files:
        return path
    merged = os.path.join(tmp, name + ".csv")
    cmd = [READER, "merge", path]
    for f in files:
        cmd += ["--retried", f]
    r = subprocess.run([*cmd, "--csv", merged], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"cannot fold {', '.join(files)} into {path}: {r.stderr.strip()}")
    return merged


def summary(path):
    r = subprocess.run([READER, "merge", path, "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"skipping {path}: {r.stderr.strip()}", file=sys.stderr)
        return None
    return json.loads(r.stdout)


FIRST = 1000


def first_thousand(path):
    """The summary of a report's first FIRST seeds, if it has them all."""
    with open(path) as f:
        lines = f.readlines()
    if len(lines) < FIRST + 1:
        return None
    with tempfile.TemporaryDirectory() as d:
        part = os.path.join(d, "first.csv")
        with open(part, "w") as f:
            f.writelines(lines[:FIRST + 1])
        return summary(part)


def bytes_per_position(s):
    """Peak memory over positions stored, for the report's deal that stored the most."""
    return s["largest_search"]["bytes_per_position"] if s["largest_search"] else 0.0


def pct(x):
    return f"{100 * x:.2f}%"


def agreement(s, pub):
    """Whether our interval for all deals (unknowns either way) meets the
    published one."""
    value, half, _, _ = pub
    lo, hi = (value - half, value + half) if half is not None else (value - 0.5, value + 0.5)
    olo, ohi = (100 * x for x in s["all_deals_ci95"])
    return "yes" if olo <= hi and lo <= ohi else "no"


def table(out, seeds):
    with tempfile.TemporaryDirectory() as tmp:
        table_in(out, seeds, tmp)


def table_in(out, seeds, tmp):
    rows = []
    reports = {}
    for v in VARIANTS:
        name, game, opts, nodes, pub = v
        if not os.path.exists(os.path.join(out, name + ".csv")):
            continue
        reports[name] = report_with_retry(out, name, tmp)
        s = summary(reports[name])
        if s is None:
            continue
        rows.append((v, s))
    version = commit()
    demon_version = subprocess.run([READER, "--version"], capture_output=True, text=True).stdout.strip()
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    csv_lines = ["variant,game,options,rules,seeds,deals,won,lost,unknown,win_rate,ci95_low,ci95_high,"
                 "all_deals_ci95_low,all_deals_ci95_high,node_limit,retry_node_limit,mean_seconds,p99_seconds,max_seconds,"
                 "nodes_per_second,bytes_per_position,"
                 "published,published_half_width,published_source,agrees"]
    md = [
        "# Winnability of the Canfield family",
        "",
        f"Generated {now} by `python3 scripts/winnability_table.py --seeds {seeds}` "
        f"(reports read by {demon_version} at commit {version}; `NAME.versions` names the commits that solved them) on {cpu}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}. Deals are demon's seeds 1 to N of each variant; the raw reports "
        "are the CSV files beside this one (`demon merge FILE` summarises one).",
        "",
        "Win rate: of the decided deals, with its 95% Wilson interval. All deals: the 95% interval "
        "for the win rate of all deals whatever the unknown ones turn out to be (from its lower end "
        "with every unknown lost to its upper end with every unknown won). A deal is unknown when "
        "the node limit stopped its search: node limits (not time) keep every verdict reproducible. "
        "Where the node limit names further figures, the deals unknown at the first were solved again "
        "at the second (`NAME.retry.csv`, folded in with `demon merge NAME.csv --retried NAME.retry.csv`), "
        "those still unknown at the third (`NAME.retry2.csv`, folded in after it), and so on; "
        "the time and speed columns then cover every run. "
        "Mnodes/s: nodes over time for the whole report. B/position: peak memory over positions "
        "stored, for the deal that stored the most (small searches are dominated by fixed buffers).",
        "",
        "| variant | rule options | deals | won | lost | unknown | win rate (95% CI) | all deals (95% CI) | node limit | mean s | max s | Mnodes/s | B/position | published | agrees |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    solved_by = {}
    for (name, game, opts, nodes, pub), s in rows:
        wr = s["win_rate"]
        ci = s["win_rate_ci95"]
        al = s["all_deals_ci95"]
        rate = f"{pct(wr)} ({pct(ci[0])}–{pct(ci[1])})" if wr is not None else "–"
        alls = f"{pct(al[0])}–{pct(al[1])}"
        if pub:
            p = f"{pub[0]:.3f}% ± {pub[1]:.3f}%" if pub[1] is not None else f"{pub[0]:.0f}%"
            p += f" ({pub[2]})"
            agree = agreement(s, pub)
        else:
            p, agree = "–", "–"
        partial = "" if s["deals"] >= seeds else f" (of {seeds})"
        # One job's speed (nodes over the deals' summed time); peak memory over positions
        # for its deal that stored the most (where the table dominates).
        rate_ns = s["nodes_per_second"] or 0.0
        bpp = bytes_per_position(s)
        vf = os.path.join(out, name + ".versions")
        solved_by[name] = open(vf).read().split() if os.path.exists(vf) else []
        # Each retry's limit; a last retry with rows still pending is not
        # folded in (report_with_retry).
        levels = len(retry_files(out, name))
        limit = f"{nodes:,}"
        rl = None
        for level in range(1, levels + 1):
            lim = retry_limit(out, name, level)
            done, total = retry_progress(out, name, level)
            if retry_pending(out, name, level):
                limit += (f" (a retry at {lim:,} is under way, {done:,} of the {total:,} "
                          "unknown deals so far, not folded in until it is resumed)")
                break
            rl = lim
            limit += f", then {lim:,}"
            if done < total:
                limit += f" ({done:,} of the {total:,} retried so far)"
        md.append(f"| {name} | `{(game + ' ' + opts).strip()}` | {s['deals']}{partial} | {s['won']} | "
                  f"{s['lost']} | {s['unknown']} | {rate} | {alls} | {limit} | {s['seconds']['mean']:.3f} | "
                  f"{s['seconds']['max']:.1f} | {rate_ns / 1e6:.2f} | {bpp:.0f} | {p} | {agree} |")
        csv_lines.append(",".join([
            name, game, f'"{opts}"', f'"{s["rules"]}"', f"1..{seeds}", str(s["deals"]), str(s["won"]),
            str(s["lost"]), str(s["unknown"]),
            "" if wr is None else f"{wr:.6f}", "" if ci is None else f"{ci[0]:.6f}",
            "" if ci is None else f"{ci[1]:.6f}", f"{al[0]:.6f}", f"{al[1]:.6f}", str(nodes), "" if rl is None else str(rl),
            f"{s['seconds']['mean']:.4f}", f"{s['seconds']['p99']:.4f}", f"{s['seconds']['max']:.4f}",
            f"{rate_ns:.0f}", f"{bpp:.1f}",
            "" if not pub else f"{pub[0]}", "" if not pub or pub[1] is None else f"{pub[1]}",
            "" if not pub else f'"{pub[2]}"', "" if not pub else agree,
        ]))
    # The first thousand seeds on their own: the solver's targets are set
    # there (every deal decided), so the table shows how far each game is.
    first = [(name, first_thousand(reports[name])) for (name, *_), _ in rows]
    first = [(n, s) for n, s in first if s is not None]
    if first:
        md += ["", f"Seeds 1–{FIRST:,} of each report (the solver's targets are set on these: every deal decided):", "",
               "| variant | won | lost | unknown | mean s | max s | Mnodes/s | B/position |",
               "|---|---|---|---|---|---|---|---|"]
        for n, s in first:
            bpp = bytes_per_position(s)
            md.append(f"| {n} | {s['won']} | {s['lost']} | {s['unknown']} | {s['seconds']['mean']:.3f} | "
                      f"{s['seconds']['max']:.2f} | {(s['nodes_per_second'] or 0) / 1e6:.2f} | {bpp:.0f} |")
    walls = {}
    log = os.path.join(out, "runs.log")
    if os.path.exists(log):
        for line in open(log):
            f = line.split()
            walls[f[1]] = walls.get(f[1], 0) + int(f[4].removeprefix("wall=").removesuffix("s"))
    if walls:
        md += ["", "Wall time of the runs behind the table (from `runs.log`, all invocations): " +
               ", ".join(f"{n} {w / 3600:.2f} h" for n, w in walls.items()) +
               f"; {sum(walls.values()) / 3600:.2f} h in all."]
    md += ["", "Published figures and their rules:", ""]
    for (name, _, _, _, pub), _ in rows:
        if pub:
            md.append(f"- {name}: {pub[2]}; {pub[3]}.")
    md += ["", "Versions of demon that solved each report: " +
           "; ".join(f"{n}: {', '.join(v) or 'not recorded'}" for n, v in solved_by.items()) + "."]
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "table.csv"), "w") as f:
        f.write("\n".join(csv_lines) + "\n")
    print("\n".join(md))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10_000, help="seeds 1..N of every variant (default 10000)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="deals at once (default: one per core)")
    ap.add_argument("--max-memory", default="8G", help="memory of the whole run (default 8G)")
    ap.add_argument("--only", help="comma-separated variant names, solved in the order given")
    ap.add_argument("--table-only", action="store_true", help="do not solve; rebuild the table from the reports")
    ap.add_argument("--retry", metavar="NODES",
                    help="then solve each variant's unknown deals again at this node limit (e.g. 30M), "
                         "into NAME.retry.csv")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "winnability"))
    a = ap.parse_args()
    names = [v[0] for v in VARIANTS]
    only = a.only.split(",") if a.only else names
    for n in only:
        if n not in names:
            sys.exit(f"unknown variant '{n}' (known: {', '.join(names)})")
    os.makedirs(a.out, exist_ok=True)
    run(["cargo", "build", "--release", "--locked", "-q", "-p", "demon-cli"], cwd=ROOT)
    if not a.table_only:
        os.makedirs(os.path.dirname(DEMON), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, "target", "release", "demon"), DEMON + ".new")
        os.replace(DEMON + ".new", DEMON)
        # The commit the binary was built from, for NAME.versions and runs.log
        # (the tree may move on while the script runs).
        version = commit()
        # In the order given to --only, so that a session can put first what matters most.
        for n in only:
            v = next(v for v in VARIANTS if v[0] == n)
            solve(v, a.seeds, a.jobs, a.max_memory, a.out, version)
            if a.retry:
                retry(v, a.retry, a.jobs, a.max_memory, a.out, version)
    table(a.out, a.seeds)


if __name__ == "__main__":
    main()
