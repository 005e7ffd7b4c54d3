#!/usr/bin/env python3
"""Turn raw Google Benchmark JSON into report.md and report.html.

Used by bench/run, and on its own to re-render a finished run:

    python3 bench/report.py bench/out

reads OUT/manifest.json (written by bench/run) and the raw JSON it names, and
writes OUT/report.md and OUT/report.html. Python 3 standard library only; the
HTML page draws its bar charts as inline SVG and loads nothing from the network.
"""

import html
import json
import os
import re
import statistics
import sys
import textwrap

# Each library benchmark whose work is a plain memory pass, mapped to the plain-C
# benchmark doing the same memory work. The report shows the benchmark's median
# time divided by its floor's (both process the same number of items), measured in
# the same configuration.
FLOORS = {
    "ArrayAppendInt8": "FloorAppendInt32",
    "ArrayAppendInt16": "FloorAppendInt32",
    "ArrayAppendInt32": "FloorAppendInt32",
    "ArrayAppendInt64": "FloorAppendInt32",
    "ArrayAppendDouble": "FloorAppendInt32",
    "ArrayAppendString": "FloorAppendString",
    "ArrayAppendNulls": "FloorAppendNulls",
    "ArrayViewGetInt8": "FloorCopyInt8",
    "ArrayViewGetInt16": "FloorCopyInt16",
    "ArrayViewGetInt32": "FloorCopyInt32",
    "ArrayViewGetInt64": "FloorCopyInt64",
    "ArrayViewIsNull": "FloorBitmapTest",
    "ArrayViewIsNullNonNullable": "FloorIsNullNonNullable",
    "ArrayViewGetString": "FloorStringWalk",
    "SchemaInitWideStruct": "FloorSchemaInitWideStruct",
    "SchemaViewInitWideStruct": "FloorSchemaViewInitWideStruct",
    # The reference's buffer reads copy every body, so they track memcpy; a zero-copy
    # read of the same 10 MiB should come out far below 1.00x. File reads copy once.
    "IpcReadFloat64FromBuffer": "FloorMemcpyFloat64Read",
    "IpcReadFloat64LongFromBuffer": "FloorMemcpyFloat64Read",
    "IpcReadFloat64WideFromBuffer": "FloorMemcpyFloat64Read",
    "IpcReadFloat64FromFile": "FloorMemcpyFloat64Read",
    "IpcReadFloat64LongFromFile": "FloorMemcpyFloat64Read",
    "IpcReadFloat64WideFromFile": "FloorMemcpyFloat64Read",
    # Dictionary deltas of N x 2 KiB against N memcpy() calls of 2 KiB (same N).
    "IpcReadDictionaryDeltas": "FloorMemcpyDictionaryDeltas",
    # A memory-mapped file: decoding every batch against one memcpy of the file
    # (goal < 0.02x); summing every value against a loop over the mapped words (goal
    # <= 1.10x).
    "IpcMmapReadBatches": "FloorMemcpyMmapFile",
    "IpcMmapSumValues": "FloorSumMmapFile",
    # The push decoder fed the many_batches stream in pieces, against the pull
    # reader over the whole stream in memory (ipc_push_benchmark.cc).
    "IpcPushManyBatches64KiB": "FloorPushBufferReaderManyBatches",
    "IpcPushManyBatches64KiBCallbacks": "FloorPushBufferReaderManyBatches",
    "IpcPushManyBatches64KiBHandedOver": "FloorPushBufferReaderManyBatches",
    "IpcPushManyBatches4KiB": "FloorPushBufferReaderManyBatches",
}

# The time the verdicts compare and the charts draw. CPU time, because on a shared
# machine a benchmark's real time also counts the time other processes held its core
# (on this project's 2-core machine, shared by several builds, real time ran 2-3x
# the CPU time and moved with the load, while CPU time stayed within a few percent).
# Real time is shown next to it; bench/run --metric real_time decides on real time.
METRIC = "cpu_time"

_NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


# ---------------------------------------------------------------------------
# Number formatting
# ---------------------------------------------------------------------------

def _three_digits(value):
    """value (>= 0, < 1000 after scaling) with three significant digits."""
    if value >= 99.95:
        return "%.0f" % value
    if value >= 9.995:
        return "%.1f" % value
    return "%.2f" % value


def _scaled(value, steps):
    """(scaled magnitude, unit) for |value|; steps = [(factor, unit), ...] ascending."""
    magnitude = abs(value)
    factor, unit = steps[0]
    for step_factor, step_unit in steps[1:]:
        # Move up a unit when the value would print as 1000 or more in this one.
        if magnitude / factor < 999.5:
            break
        factor, unit = step_factor, step_unit
    return magnitude / factor, unit


_TIME_STEPS = [(1.0, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")]
_RATE_STEPS = [(1.0, ""), (1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T")]


def format_time(ns, signed=False):
    """A duration in nanoseconds, in the unit that suits it: '722 µs', '+1.23 ms'."""
    if ns is None:
        return ""
    scaled, unit = _scaled(ns, _TIME_STEPS)
    text = "%s %s" % (_three_digits(scaled), unit)
    if signed:
        text = ("-" if ns < 0 else "+") + text
    return text


def format_rate(per_second, unit=""):
    """A rate with an SI prefix: '349 M/s', '6.44 GB/s'."""
    if per_second is None:
        return ""
    scaled, prefix = _scaled(per_second, _RATE_STEPS)
    return "%s %s%s/s" % (_three_digits(scaled), prefix, unit)


def format_percent(value, signed=False):
    if value is None:
        return ""
    text = "%.1f %%" % abs(value)
    if signed:
        text = ("-" if value < 0 else "+") + text
    return text


def format_ratio(value):
    if value is None:
        return ""
    # Zero-copy reads come out hundreds of times below their floor: keep a digit.
    return "%.2fx" % value if value >= 0.01 or value == 0 else "%.1gx" % value


# ---------------------------------------------------------------------------
# Raw results
# ---------------------------------------------------------------------------

class Stats:
    """The runs of one benchmark in one configuration.

    rounds: a list with one list of Google Benchmark runs per round (bench/run runs
    every benchmark once per round, local and baseline interleaved); a flat list of
    runs is one round. The samples compared are one per round (the median of that
    round's repetitions); with a single round they are the repetitions themselves.
    """

    def __init__(self, name, rounds):
        if rounds and isinstance(rounds[0], dict):
            rounds = [rounds]
        self.name = name
        self.function = name.split("/")[0]
        runs = [run for round_runs in rounds for run in round_runs]
        errors = [run for run in runs if run.get("error_occurred")]
        self.error = errors[0].get("error_message", "error") if errors else None
        ok_rounds = [[run for run in r if not run.get("error_occurred")] for r in rounds]
        ok_rounds = [r for r in ok_rounds if r]
        ok = [run for r in ok_rounds for run in r]
        self.repetitions = len(ok)
        self.rounds = len(ok_rounds)
        self.iterations = _median([run.get("iterations") for run in ok])
        self.samples = {}
        for metric in ("real_time", "cpu_time"):
            if len(ok_rounds) > 1:
                values = [_median([_ns(run, metric) for run in r]) for r in ok_rounds]
            else:
                values = [_ns(run, metric) for run in ok]
            self.samples[metric] = [v for v in values if v is not None]
        self.real_time = _spread(self.samples["real_time"])
        self.cpu_time = _spread(self.samples["cpu_time"])
        self.items_per_second = _median([run.get("items_per_second") for run in ok])
        self.bytes_per_second = _median([run.get("bytes_per_second") for run in ok])

    def time(self, metric=METRIC):
        """(median, min, max) of a time in ns over the samples, or None."""
        return getattr(self, metric)

    def sample_count(self, metric=METRIC):
        return len(self.samples.get(metric, []))


def _ns(run, key):
    value = run.get(key)
    if value is None:
        return None
    return value * _NS_PER_UNIT.get(run.get("time_unit", "ns"), 1.0)


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return (statistics.median(values), min(values), max(values))


def parse_results(data):
    """Google Benchmark JSON -> (ordered {run name: Stats}, context).

    Aggregates (mean, median, stddev, cv) are ignored: medians and spreads are
    computed from the individual repetitions.
    """
    runs = _iteration_runs(data)
    return {name: Stats(name, entries) for name, entries in runs.items()}, data.get(
        "context", {})


def _iteration_runs(data):
    """{run name: [iteration runs]} of a Google Benchmark JSON document, in order."""
    runs = {}
    for entry in data.get("benchmarks", []):
        if entry.get("run_type", "iteration") != "iteration":
            continue
        name = entry.get("run_name") or entry["name"]
        runs.setdefault(name, []).append(entry)
    return runs


def errors_in(data):
    """[(benchmark, message)] for every run of a JSON document that errored."""
    return [(entry.get("name", "?"), entry.get("error_message", "error"))
            for entry in data.get("benchmarks", []) if entry.get("error_occurred")]


# ---------------------------------------------------------------------------
# Doc comments
# ---------------------------------------------------------------------------

_FUNCTION = re.compile(r"^\s*(?:static\s+)?void\s+(\w+)\s*\(\s*(?:::)?benchmark::State\s*&")


def parse_source(text):
    """Benchmark docs of one source file.

    Returns (file comment, {function: {"title", "description", "first_line",
    "last_line"}}). A benchmark's doc comment is the run of `///` lines right above
    its function: the first is the title, the lines after the blank `///` are the
    paragraph. Lines are 1-based and span the doc comment through the function's
    closing brace. The file comment is the leading block of `//` lines.
    """
    lines = text.splitlines()
    file_comment = []
    for line in lines:
        stripped = line.strip()
        if not stripped.startswith("//") or stripped.startswith("///"):
            break
        file_comment.append(stripped[2:].strip())

    docs = {}
    for index, line in enumerate(lines):
        match = _FUNCTION.match(line)
        if not match:
            continue
        start = index
        while start > 0 and lines[start - 1].strip().startswith("///"):
            start -= 1
        doc = [l.strip()[3:].strip() for l in lines[start:index]]
        title = doc[0] if doc else ""
        paragraph = " ".join(l for l in doc[1:] if l)
        docs[match.group(1)] = {
            "title": title,
            "description": paragraph,
            "first_line": start + 1,
            "last_line": _closing_line(lines, index) + 1,
        }
    return " ".join(l for l in file_comment if l), docs


def _closing_line(lines, index):
    """Index of the line holding the brace that closes the body opened at or after index."""
    depth = 0
    opened = False
    for i in range(index, len(lines)):
        code = lines[i].split("//")[0]
        code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', "", code)
        for char in code:
            if char == "{":
                depth += 1
                opened = True
            elif char == "}":
                depth -= 1
                if opened and depth == 0:
                    return i
    return index


def parse_source_file(path):
    with open(path, encoding="utf-8") as f:
        return parse_source(f.read())


# ---------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------

def floor_ratio(results, name, metric=METRIC):
    """Median time of a benchmark over its floor's, same configuration, or None.

    name is a run name: a function, or a function with arguments ("F/1000"), whose
    floor is the floor function with the same arguments."""
    function = name.split("/")[0]
    floor = FLOORS.get(function)
    if floor is None:
        return None
    stats = results.get(name)
    floor_stats = results.get(floor + name[len(function):])
    if not stats or not floor_stats or stats.error or floor_stats.error:
        return None
    value, floor_value = stats.time(metric), floor_stats.time(metric)
    if not value or not floor_value or floor_value[0] <= 0:
        return None
    return value[0] / floor_value[0]


def compare(baseline, local, metric=METRIC):
    """Change from baseline to local, both Stats (or None), and its verdict.

    Returns {"baseline", "local", "change", "percent", "noise", "verdict"}: medians of
    the samples in ns, the signed change (negative = local is faster), its percentage
    of the baseline, the noise threshold in percent and the verdict, one of:

    - "faster" / "slower": the change exceeds the noise threshold, which is the larger
      of the two configurations' spreads between their own samples (rounds): the
      min-max range as a percentage of the median (see noise_percent());
    - "no change": the change is within that spread;
    - "n/a": fewer than 2 samples on a side, so no spread was measured;
    - "not in baseline", "not in local", "error".
    """
    def usable(stats):
        return stats is not None and not stats.error and stats.time(metric) is not None

    b = baseline.time(metric) if usable(baseline) else None
    l = local.time(metric) if usable(local) else None
    out = {"baseline": b[0] if b else None, "local": l[0] if l else None,
           "change": None, "percent": None, "noise": None}
    if baseline is None or local is None:
        out["verdict"] = "not in baseline" if baseline is None else "not in local"
        return out
    if b is None or l is None:
        out["verdict"] = "error"
        return out
    out["change"] = l[0] - b[0]
    out["percent"] = 100.0 * out["change"] / b[0] if b[0] else None
    noise = [noise_percent(s, metric) for s in (baseline, local)]
    if None in noise or out["percent"] is None:
        out["verdict"] = "n/a"
        return out
    out["noise"] = max(noise)
    if abs(out["percent"]) > out["noise"]:
        out["verdict"] = "faster" if out["change"] < 0 else "slower"
    else:
        out["verdict"] = "no change"
    return out


def noise_percent(stats, metric=METRIC):
    """Spread between the samples of one binary: (max - min) / median, in percent.

    None with fewer than 2 samples. A change smaller than this is not told apart from
    running the same binary again.
    """
    if stats is None or stats.error or stats.sample_count(metric) < 2:
        return None
    median, low, high = stats.time(metric)
    if not median:
        return None
    return 100.0 * (high - low) / median


def is_floor(function_name):
    """Whether a benchmark is a floor: a plain C reference loop, never given a verdict."""
    return function_name.startswith("Floor") or function_name in FLOORS.values()


def relative_spread(spread, repetitions=2):
    """Half the min-max range as a percentage of the median (None for one sample)."""
    if spread is None or not spread[0] or repetitions < 2:
        return None
    return 50.0 * (spread[2] - spread[1]) / spread[0]


def noise_summary(rows):
    """What the noise was, from Summary rows of one comparison.

    Returns {"benchmarks", "median", "max", "max_name", "floor_max", "floor_name"}: the
    median and largest noise threshold over the non-floor benchmarks, and the largest
    change between the two configurations among floor rows (plain C loops that do not
    depend on the checkout, so any change there is the machine's noise). Values are
    percentages; None when nothing was measured.
    """
    measured = [r for r in rows if r.get("noise") is not None and not r.get("is_floor")]
    floors = [r for r in rows if r.get("is_floor") and r.get("percent") is not None]
    out = {"benchmarks": len(measured), "median": None, "max": None, "max_name": None,
           "floor_max": None, "floor_name": None}
    if measured:
        out["median"] = statistics.median(r["noise"] for r in measured)
        worst = max(measured, key=lambda r: r["noise"])
        out["max"], out["max_name"] = worst["noise"], worst["name"]
    if floors:
        worst = max(floors, key=lambda r: abs(r["percent"]))
        out["floor_max"], out["floor_name"] = abs(worst["percent"]), worst["name"]
    return out


def noise_sentence(summary, baseline_name, metric=METRIC):
    """One sentence stating the noise measured in a comparison."""
    if summary["median"] is None:
        return ("Noise: not measured (fewer than 2 rounds), so no change is called "
                "faster or slower.")
    text = ("Noise measured (%s, between rounds of the same binary): median %s, "
            "largest %s (%s). A change smaller than its benchmark's noise is \"no change\"."
            % (metric.replace("_", " "), format_percent(summary["median"]),
               format_percent(summary["max"]), summary["max_name"]))
    if summary["floor_max"] is not None:
        text += (" Floor loops, which do not depend on the checkout, differed between "
                 "local and %s by up to %s (%s)." % (
                     baseline_name, format_percent(summary["floor_max"]),
                     summary["floor_name"]))
    return text


# ---------------------------------------------------------------------------
# The report model, shared by both renderers
# ---------------------------------------------------------------------------

class Report:
    """Everything both renderers need, loaded from a manifest dict.

    manifest = {
      "title": str, "repo_root": path, "out_dir": path, "metric": "real_time",
      "configurations": [{"name", "description", "status" ("ok" or a reason it is
          not available), "baseline": bool, "details": {label: value},
          "groups": {group: {"json": [paths, one per round, rel. to out_dir or
                                       absolute], "error": str}},
          "docs": {group: {"comment": str, "source": "bench/x.cc",
                           "functions": {...parse_source()}}}}]}
    """

    def __init__(self, manifest):
        self.manifest = manifest
        self.title = manifest.get("title", "Benchmark report")
        self.out_dir = manifest.get("out_dir", ".")
        self.repo_root = manifest.get("repo_root", ".")
        self.metric = manifest.get("metric", METRIC)
        self.configs = manifest["configurations"]
        self.results = {}   # config name -> {run name: Stats}
        self.groups = {}    # config name -> {group: [run names]}
        self.context = {}   # config name -> Google Benchmark context
        self.load_errors = []
        for config in self.configs:
            self._load(config)
        self.available = [c for c in self.configs if c.get("status") == "ok"]
        self.local = next((c for c in self.available if not c.get("baseline")), None)
        self.baselines = [c for c in self.available if c.get("baseline")]

    def _load(self, config):
        name = config["name"]
        self.results[name] = {}
        self.groups[name] = {}
        for group, info in config.get("groups", {}).items():
            paths = info.get("json") or []
            if isinstance(paths, str):
                paths = [paths]
            rounds = {}   # run name -> [[runs of one file], ...]
            context = {}
            for path in paths:  # one file per round (of a benchmark or a whole group)
                if not os.path.isabs(path):
                    path = os.path.join(self.out_dir, path)
                try:
                    with open(path, encoding="utf-8") as f:
                        document = json.load(f)
                except (OSError, ValueError) as e:
                    self.load_errors.append("%s: cannot read %s: %s" % (name, path, e))
                    continue
                for run_name, runs in _iteration_runs(document).items():
                    rounds.setdefault(run_name, []).append(runs)
                context = context or document.get("context", {})
            results = {run_name: Stats(run_name, r) for run_name, r in rounds.items()}
            self.results[name].update(results)
            self.groups[name][group] = list(results)
            if context:
                self.context.setdefault(name, context)

    def group_names(self):
        """Groups in order: the local configuration's first, then any others."""
        order = []
        for config in ([self.local] if self.local else []) + self.configs:
            for group in config.get("groups", {}):
                if group not in order:
                    order.append(group)
        return order

    def benchmarks(self, group):
        """Run names of a group, local order first, then baseline-only ones."""
        order = []
        for config in ([self.local] if self.local else []) + self.configs:
            for name in self.groups[config["name"]].get(group, []):
                if name not in order:
                    order.append(name)
        return order

    def all_benchmarks(self):
        return [(g, b) for g in self.group_names() for b in self.benchmarks(g)]

    def doc(self, group, function):
        """(doc dict, source path) from the first configuration documenting it,
        local first. source is None unless the doc came from the working tree."""
        for config in ([self.local] if self.local else []) + self.configs:
            group_docs = config.get("docs", {}).get(group)
            if group_docs and function in group_docs.get("functions", {}):
                source = group_docs.get("source") if not config.get("baseline") else None
                return group_docs["functions"][function], source
        return None, None

    def group_errors(self, group):
        """["config: message"] for configurations where running the group failed."""
        return ["%s: %s" % (c["name"], c["groups"][group]["error"]) for c in self.configs
                if c.get("groups", {}).get(group, {}).get("error")]

    def group_comment(self, group):
        for config in ([self.local] if self.local else []) + self.configs:
            group_docs = config.get("docs", {}).get(group)
            if group_docs:
                return group_docs.get("comment", ""), group_docs.get("source")
        return "", None

    def source_link(self, source, doc):
        """Path of a source file relative to the report, with a line anchor."""
        path = os.path.relpath(os.path.join(self.repo_root, source), self.out_dir)
        return "%s#L%d-L%d" % (path.replace(os.sep, "/"), doc["first_line"], doc["last_line"])

    def summary_rows(self, baseline):
        """One dict per benchmark comparing baseline (a config, or None) with local.

        The verdict is decided on self.metric; the other time (real or CPU) is carried
        along as baseline_other, local_other and percent_other. Floor rows get the
        verdict "reference": they are plain C loops that do not depend on the checkout.
        """
        rows = []
        other = other_metric(self.metric)
        local_results = self.results[self.local["name"]] if self.local else {}
        base_results = self.results[baseline["name"]] if baseline else {}
        for group, name in self.all_benchmarks():
            local_stats = local_results.get(name)
            if baseline:
                row = compare(base_results.get(name), local_stats, self.metric)
                second = compare(base_results.get(name), local_stats, other)
            else:
                row = compare(local_stats, local_stats, self.metric)
                second = compare(local_stats, local_stats, other)
                row.update(baseline=None, change=None, percent=None, verdict="",
                           noise=noise_percent(local_stats, self.metric))
                second.update(baseline=None, percent=None)
            function = name.split("/")[0]
            row.update(
                name=name, group=group,
                baseline_other=second["baseline"], local_other=second["local"],
                percent_other=second["percent"],
                local_error=local_stats.error if local_stats else None,
                floor=floor_ratio(local_results, name, self.metric),
                is_floor=is_floor(function))
            if row["is_floor"] and baseline:
                row["verdict"] = "reference"
            rows.append(row)
        return rows

    def config_rows(self, name):
        """Per configuration: the figures of one benchmark (run name)."""
        rows = []
        for config in self.available:
            stats = self.results[config["name"]].get(name)
            row = {"config": config["name"], "stats": stats,
                   "floor": floor_ratio(self.results[config["name"]], name,
                                        self.metric)}
            rows.append(row)
        return rows


def other_metric(metric):
    return "real_time" if metric == "cpu_time" else "cpu_time"


def metric_label(metric):
    return {"cpu_time": "CPU", "real_time": "real"}.get(metric, metric)


def summary_cells(row, with_baseline):
    """The Summary columns of one row, as text (see summary_header)."""
    name = row["name"] + (" (floor)" if row["is_floor"] else "")
    if with_baseline:
        return [name, format_time(row["baseline"]), format_time(row["local"]),
                format_percent(row["percent"], signed=True),
                "±" + format_percent(row["noise"]) if row["noise"] is not None else "",
                row["verdict"], format_time(row["baseline_other"]),
                format_time(row["local_other"]), format_ratio(row["floor"])]
    if row.get("local_error"):
        return [name, "error: " + row["local_error"], "", "", ""]
    return [name, format_time(row["local"]),
            "±" + format_percent(row["noise"]) if row["noise"] is not None else "",
            format_time(row["local_other"]), format_ratio(row["floor"])]


def summary_header(baseline_name, metric=METRIC):
    first, second = metric_label(metric), metric_label(other_metric(metric))
    if baseline_name:
        return ["Benchmark", "%s %s" % (baseline_name, first), "local %s" % first,
                "Change", "Noise", "Verdict", "%s %s" % (baseline_name, second),
                "local %s" % second, "local / floor"]
    return ["Benchmark", "local %s" % first, "Noise", "local %s" % second, "local / floor"]


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

def _md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(header, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |",
             "| " + " | ".join(align) + " |"]
    for row in rows:
        lines.append("| " + " | ".join(_md_escape(c) for c in row) + " |")
    return "\n".join(lines)


def text_table(header, rows):
    """A plain-text table for the terminal."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    def line(cells):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


# Widest Description cell of the Configurations table, in characters: with the name
# and status columns the table stays within a 110-column page or terminal (bench/run
# shortens commit subjects to 30 characters, the rest of the line being fixed).
DESCRIPTION_WIDTH = 90


def shorten(text, width):
    """text cut to at most width characters, ending with '…' when cut (at a word if
    one ends in the last third)."""
    text = " ".join(str(text).split())
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    space = cut.rfind(" ")
    if space > width * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def configuration_rows(report):
    """[name, description, status] per configuration; descriptions fit the page
    (the full commit subject is in the build details)."""
    rows = []
    for config in report.configs:
        status = "ok" if config.get("status") == "ok" else "not available: " + config.get(
            "status", "?")
        if config.get("status") == "ok" and config.get("missing"):
            status = "ok, not built: " + ", ".join(config["missing"])
        rows.append([config["name"], shorten(config.get("description", ""), DESCRIPTION_WIDTH),
                     status])
    return rows


def machine_line(report):
    context = next(iter(report.context.values()), {})
    if not context:
        return ""
    parts = []
    if context.get("host_name"):
        parts.append("host %s" % context["host_name"])
    if context.get("num_cpus"):
        parts.append("%s CPUs at %s MHz" % (context["num_cpus"], context.get("mhz_per_cpu", "?")))
    if context.get("cpu_scaling_enabled"):
        parts.append("CPU frequency scaling enabled (expect noise)")
    if context.get("library_build_type") and context["library_build_type"] != "release":
        parts.append("libbenchmark reports a %s build (the harness, not the code measured)"
                     % context["library_build_type"])
    loads = [c["load_avg"][0] for c in report.context.values() if c.get("load_avg")]
    if loads:
        busy = context.get("num_cpus") and max(loads) >= context["num_cpus"]
        parts.append("load average up to %.2f at the start of a run%s" % (
            max(loads), " (busy machine: expect noise)" if busy else ""))
    if context.get("date"):
        parts.append("run %s" % context["date"])
    return ", ".join(parts)


def run_line(report):
    """What was run and how long it took, from the manifest bench/run writes."""
    m = report.manifest
    if "rounds" not in m:
        return ""
    text = "%s, %s round%s of at least %s s per benchmark and configuration" % (
        m.get("suite", "benchmarks").capitalize(), m["rounds"],
        "" if m["rounds"] == 1 else "s", m.get("min_time", "?"))
    timing = m.get("timing")
    if timing:
        text += "; bench/run took %s wall, %s CPU (builds %s wall, %s CPU)" % tuple(
            _minutes(timing.get(k)) for k in ("total_wall_s", "total_cpu_s", "build_wall_s",
                                             "build_cpu_s"))
    return text


def _minutes(seconds):
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    return "%d:%02d" % (seconds // 60, seconds % 60)


def _notes(report):
    metric = report.metric.replace("_", " ")
    return (
        "bench/run runs every benchmark once per round, local and baseline interleaved "
        "benchmark by benchmark, for several rounds; times are medians over the rounds. "
        "Verdicts compare %s (the other time is shown beside it). Change is local "
        "against baseline (negative = local is faster). Noise is the larger of the two "
        "binaries' spreads between their own rounds (max - min as a percentage of the "
        "median): a change is called faster or slower only when it exceeds it, "
        "otherwise it is \"no change\". Floor rows are plain C loops that do not depend "
        "on the checkout: reference lines, never given a verdict; their change shows the "
        "machine's noise. \"/ floor\" is the benchmark's median time divided by that of "
        "the plain-C loop doing the same memory work, in the same configuration (1.00x = "
        "as fast as the plain loop). In the per-benchmark tables, spread is half the "
        "min-max range over the rounds as a percentage of the median." % metric)


def _summary_sections(report):
    """[(heading, header, cells, rows, noise sentence)] for the Summary: one per
    baseline, or local only."""
    sections = []
    for baseline in report.baselines:
        rows = report.summary_rows(baseline)
        sentence = noise_sentence(noise_summary(rows), baseline["name"], report.metric)
        sections.append(("local vs %s" % baseline["name"],
                         summary_header(baseline["name"], report.metric),
                         [summary_cells(r, True) for r in rows], rows, sentence))
    if not report.baselines:
        rows = report.summary_rows(None)
        noise = [r["noise"] for r in rows if r["noise"] is not None and not r["is_floor"]]
        sentence = ("Noise measured (%s, between rounds): median %s, largest %s." % (
            report.metric.replace("_", " "), format_percent(statistics.median(noise)),
            format_percent(max(noise))) if noise else
            "Noise: not measured (fewer than 2 rounds).")
        sections.append(("local", summary_header(None, report.metric),
                         [summary_cells(r, False) for r in rows], rows, sentence))
    return sections


def _detail_header():
    return ["Configuration", "Iterations", "Real time", "± spread", "CPU time", "± spread",
            "Items/s", "Bytes/s", "/ floor"]


def _detail_cells(row):
    stats = row["stats"]
    if stats is None:
        return [row["config"], "not run", "", "", "", "", "", "", ""]
    if stats.error:
        return [row["config"], "error: " + stats.error, "", "", "", "", "", "", ""]
    real, cpu = stats.real_time, stats.cpu_time
    return [row["config"],
            "%d" % stats.iterations if stats.iterations is not None else "",
            format_time(real[0] if real else None),
            format_percent(relative_spread(real, stats.sample_count("real_time"))),
            format_time(cpu[0] if cpu else None),
            format_percent(relative_spread(cpu, stats.sample_count("cpu_time"))),
            format_rate(stats.items_per_second), format_rate(stats.bytes_per_second, "B"),
            format_ratio(row["floor"])]


def render_markdown(report):
    out = ["# %s" % report.title, ""]
    machine = machine_line(report)
    if machine:
        out += ["Machine: %s." % machine, ""]
    run = run_line(report)
    if run:
        out += ["Run: %s." % run, ""]
    out += [_notes(report), ""]
    for error in report.load_errors:
        out += ["**Could not read results:** %s" % error, ""]

    out += ["## Configurations", "",
            md_table(["Name", "Description", "Status"], configuration_rows(report),
                     ["---", "---", "---"]), ""]
    for config in report.configs:
        if config.get("details"):
            out += ["<details><summary>%s build details</summary>" % html.escape(config["name"]),
                    "", md_table(["", ""], [[k, v] for k, v in config["details"].items()],
                                 ["---", "---"]), "", "</details>", ""]

    out += ["## Summary", ""]
    for heading, header, rows, _, sentence in _summary_sections(report):
        out += ["### %s" % heading, "", sentence, "", md_table(header, rows), ""]

    for group in report.group_names():
        comment, source = report.group_comment(group)
        out += ["## %s" % group, ""]
        if comment:
            out += [comment, ""]
        if source:
            out += ["Source: [%s](%s)" % (source, os.path.relpath(
                os.path.join(report.repo_root, source), report.out_dir).replace(os.sep, "/")), ""]
        for error in report.group_errors(group):
            out += ["**Failed:** %s" % error, ""]
        for name in report.benchmarks(group):
            function = name.split("/")[0]
            doc, doc_source = report.doc(group, function)
            out += ["### %s" % name, ""]
            if doc and doc["title"]:
                out += ["**%s**" % doc["title"], ""]
            if doc and doc["description"]:
                out += [doc["description"], ""]
            links = []
            if doc and doc_source:
                links.append("[source](%s)" % report.source_link(doc_source, doc))
            if function in FLOORS:
                links.append("floor: [%s](#%s)" % (FLOORS[function], FLOORS[function].lower()))
            if links:
                out += [" · ".join(links), ""]
            rows = [_detail_cells(r) for r in report.config_rows(name)]
            out += [md_table(_detail_header(), rows), ""]
    return "\n".join(out)


def render_summary_text(report):
    """The configurations and the Summary table(s) for the terminal."""
    out = []
    for name, description, status in configuration_rows(report):
        out.append("%s: %s%s" % (name, description, "" if status == "ok" else " [%s]" % status))
    out.append("")
    for heading, header, rows, _, sentence in _summary_sections(report):
        out += ["Summary: %s" % heading, text_table(header, rows), "",
                textwrap.fill(sentence, 100), ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# HTML with inline SVG charts
# ---------------------------------------------------------------------------

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; color: #222;
       padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
th { background: #f3f3f3; }
td { max-width: 40em; overflow-wrap: anywhere; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.faster { color: #17692b; font-weight: bold; }
.slower { color: #a3161a; font-weight: bold; }
.note { color: #555; font-size: 0.9em; }
h3 { margin-top: 1.6em; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; fill: #222; }
"""

_PALETTE = ["#3b6fb6", "#e08a2c", "#5aa05a", "#9c5bb5", "#c9564f", "#4fa3a5"]


def _h(text):
    return html.escape(str(text), quote=True)


def html_table(header, rows, classes=None):
    out = ["<table><tr>" + "".join("<th>%s</th>" % _h(h) for h in header) + "</tr>"]
    for r, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            css = ["num"] if i > 0 else []
            if classes and classes[r] and classes[r][i]:
                css.append(classes[r][i])
            attr = ' class="%s"' % " ".join(css) if css else ""
            cells.append("<td%s>%s</td>" % (attr, _h(cell)))
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def svg_change_chart(rows):
    """Horizontal bars of the percent change per benchmark, centred on 0."""
    rows = [r for r in rows if r.get("percent") is not None]
    if not rows:
        return ""
    label_w, half_w, bar_h, gap = 260, 220, 16, 6
    limit = max(5.0, max(abs(r["percent"]) for r in rows))
    width = label_w + 2 * half_w + 80
    height = len(rows) * (bar_h + gap) + 30
    centre = label_w + half_w
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
           'aria-label="percent change per benchmark">' % (width, height)]
    for i, row in enumerate(rows):
        y = 20 + i * (bar_h + gap)
        w = half_w * abs(row["percent"]) / limit
        x = centre - w if row["percent"] < 0 else centre
        color = {"faster": "#2e8b57", "slower": "#c0392b"}.get(row["verdict"], "#a0a0a0")
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                   % (label_w - 8, y + bar_h - 4, _h(row["name"])))
        out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s (%s)'
                   '</title></rect>' % (x, y, max(w, 0.5), bar_h, color, _h(row["name"]),
                                        _h(format_percent(row["percent"], True)),
                                        _h(row["verdict"])))
        # The value goes on the empty side of the axis, clear of the labels.
        tx = centre + 4 if row["percent"] < 0 else x + w + 4
        out.append('<text x="%.1f" y="%d">%s</text>'
                   % (tx, y + bar_h - 4, _h(format_percent(row["percent"], True))))
    out.append('<line x1="%d" y1="12" x2="%d" y2="%d" stroke="#444"/>' % (centre, centre, height))
    out.append('<text x="%d" y="11" text-anchor="middle">0 (left = local faster)</text>' % centre)
    out.append("</svg>")
    return "\n".join(out)


def svg_time_chart(bars):
    """Horizontal bars of median times with min-max whiskers.

    bars = [(label, (median, min, max) in ns, colour)].
    """
    bars = [b for b in bars if b[1] is not None]
    if not bars:
        return ""
    label_w, plot_w, bar_h, gap = 200, 420, 16, 6
    top = max(b[1][2] for b in bars) or 1.0
    width = label_w + plot_w + 90
    height = len(bars) * (bar_h + gap) + 8
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
           'aria-label="median times">' % (width, height)]
    for i, (label, (median, low, high), color) in enumerate(bars):
        y = 4 + i * (bar_h + gap)
        scale = plot_w / top
        out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                   % (label_w - 8, y + bar_h - 4, _h(label)))
        out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: median %s, '
                   'min %s, max %s</title></rect>'
                   % (label_w, y, max(median * scale, 0.5), bar_h, color, _h(label),
                      _h(format_time(median)), _h(format_time(low)), _h(format_time(high))))
        mid = y + bar_h / 2
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222"/>'
                   % (label_w + low * scale, mid, label_w + high * scale, mid))
        for end in (low, high):
            out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222"/>'
                       % (label_w + end * scale, mid - 4, label_w + end * scale, mid + 4))
        out.append('<text x="%.1f" y="%d">%s</text>'
                   % (label_w + high * scale + 6, y + bar_h - 4, _h(format_time(median))))
    out.append("</svg>")
    return "\n".join(out)


def render_html(report):
    colors = {c["name"]: _PALETTE[i % len(_PALETTE)] for i, c in enumerate(report.available)}
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>%s</title>" % _h(report.title), "<style>%s</style></head><body>" % _CSS,
           "<h1>%s</h1>" % _h(report.title)]
    machine = machine_line(report)
    if machine:
        out.append('<p class="note">Machine: %s.</p>' % _h(machine))
    run = run_line(report)
    if run:
        out.append('<p class="note">Run: %s.</p>' % _h(run))
    out.append('<p class="note">%s</p>' % _h(_notes(report)))
    for error in report.load_errors:
        out.append("<p><strong>Could not read results:</strong> %s</p>" % _h(error))

    out.append("<h2>Configurations</h2>")
    out.append(html_table(["Name", "Description", "Status"], configuration_rows(report)))
    for config in report.configs:
        if config.get("details"):
            out.append("<details><summary>%s build details</summary>%s</details>" % (
                _h(config["name"]),
                html_table(["", ""], [[k, v] for k, v in config["details"].items()])))

    out.append("<h2>Summary</h2>")
    for heading, header, cells, rows, sentence in _summary_sections(report):
        out.append("<h3>%s</h3>" % _h(heading))
        out.append('<p class="note">%s</p>' % _h(sentence))
        if report.baselines:
            out.append(svg_change_chart(rows))
            classes = [[None] * 5 + [r["verdict"] if r["verdict"] in ("faster", "slower")
                                     else None] + [None] * 3 for r in rows]
        else:
            classes = None
        out.append(html_table(header, cells, classes))

    for group in report.group_names():
        comment, source = report.group_comment(group)
        out.append("<h2>%s</h2>" % _h(group))
        if comment:
            out.append("<p>%s</p>" % _h(comment))
        if source:
            out.append('<p>Source: <a href="%s">%s</a></p>' % (_h(os.path.relpath(
                os.path.join(report.repo_root, source), report.out_dir).replace(os.sep, "/")),
                _h(source)))
        for error in report.group_errors(group):
            out.append("<p><strong>Failed:</strong> %s</p>" % _h(error))
        for name in report.benchmarks(group):
            function = name.split("/")[0]
            doc, doc_source = report.doc(group, function)
            out.append('<h3 id="%s">%s</h3>' % (_h(name.lower()), _h(name)))
            if doc and doc["title"]:
                out.append("<p><strong>%s</strong></p>" % _h(doc["title"]))
            if doc and doc["description"]:
                out.append("<p>%s</p>" % _h(doc["description"]))
            links = []
            if doc and doc_source:
                links.append('<a href="%s">source</a>' % _h(report.source_link(doc_source, doc)))
            if function in FLOORS:
                links.append('floor: <a href="#%s">%s</a>' % (_h(FLOORS[function].lower()),
                                                              _h(FLOORS[function])))
            if links:
                out.append("<p>%s</p>" % " · ".join(links))
            bars = []
            for row in report.config_rows(name):
                stats = row["stats"]
                if stats and not stats.error:
                    bars.append((row["config"], stats.time(report.metric), colors[row["config"]]))
            floor = FLOORS.get(function)
            if floor:
                for config in report.available:
                    stats = report.results[config["name"]].get(floor)
                    if stats and not stats.error:
                        bars.append(("%s floor" % config["name"], stats.time(report.metric),
                                     "#b9b9b9"))
            out.append(svg_time_chart(bars))
            out.append(html_table(_detail_header(),
                                  [_detail_cells(r) for r in report.config_rows(name)]))
    out.append("</body></html>")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------

def write_reports(manifest):
    """Write report.md and report.html into the manifest's out_dir; return the Report."""
    report = Report(manifest)
    out_dir = manifest["out_dir"]
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(render_markdown(report) + "\n")
    with open(os.path.join(out_dir, "report.html"), "w", encoding="utf-8") as f:
        f.write(render_html(report) + "\n")
    return report


def main(argv):
    if len(argv) != 2:
        print("usage: report.py OUT_DIR   (a directory written by bench/run)", file=sys.stderr)
        return 2
    out_dir = os.path.abspath(argv[1])
    with open(os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    manifest["out_dir"] = out_dir
    report = write_reports(manifest)
    print(render_summary_text(report))
    print("wrote %s and %s" % (os.path.join(out_dir, "report.md"),
                               os.path.join(out_dir, "report.html")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
