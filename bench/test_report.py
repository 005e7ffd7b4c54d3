"""Tests of the report logic (bench/report.py). Fast: no build, no benchmark runs.

    python3 -m unittest discover -s bench        (from the repository root)
"""

import json
import os
import re
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def run(name, real, cpu=None, unit="ns", iterations=100, **extra):
    entry = {"name": name, "run_name": name, "run_type": "iteration", "iterations": iterations,
             "real_time": real, "cpu_time": real if cpu is None else cpu, "time_unit": unit}
    entry.update(extra)
    return entry


def aggregate(name, kind, value):
    return {"name": "%s_%s" % (name, kind), "run_name": name, "run_type": "aggregate",
            "aggregate_name": kind, "iterations": 5, "real_time": value, "cpu_time": value,
            "time_unit": "ns"}


def stats(name, reals, unit="ns"):
    return report.Stats(name, [run(name, r, unit=unit) for r in reals])


class FormatTest(unittest.TestCase):
    def test_time_unit_is_chosen_per_value(self):
        self.assertEqual(report.format_time(12.345), "12.3 ns")
        self.assertEqual(report.format_time(722e3), "722 µs")
        self.assertEqual(report.format_time(2.874e6), "2.87 ms")
        self.assertEqual(report.format_time(3.5e9), "3.50 s")
        self.assertEqual(report.format_time(None), "")

    def test_time_rounding_moves_to_the_next_unit(self):
        self.assertEqual(report.format_time(999.4), "999 ns")
        self.assertEqual(report.format_time(999.6), "1.00 µs")
        self.assertEqual(report.format_time(9.996), "10.0 ns")

    def test_signed_time_keeps_the_sign_of_improvements(self):
        self.assertEqual(report.format_time(-1.5e6, signed=True), "-1.50 ms")
        self.assertEqual(report.format_time(2e3, signed=True), "+2.00 µs")

    def test_rates_and_percentages(self):
        self.assertEqual(report.format_rate(3.49e8), "349 M/s")
        self.assertEqual(report.format_rate(6.44e9, "B"), "6.44 GB/s")
        self.assertEqual(report.format_rate(None), "")
        self.assertEqual(report.format_percent(-12.34, signed=True), "-12.3 %")
        self.assertEqual(report.format_percent(5, signed=True), "+5.0 %")
        self.assertEqual(report.format_ratio(1.234), "1.23x")


class ParseResultsTest(unittest.TestCase):
    def test_medians_and_spread_come_from_repetitions_not_aggregates(self):
        data = {"context": {"num_cpus": 2}, "benchmarks": [
            run("A", 1.0, unit="ms"), run("A", 3.0, unit="ms"), run("A", 2.0, unit="ms"),
            aggregate("A", "mean", 999.0), aggregate("A", "median", 999.0)]}
        results, context = report.parse_results(data)
        self.assertEqual(list(results), ["A"])
        self.assertEqual(results["A"].repetitions, 3)
        self.assertEqual(results["A"].real_time, (2e6, 1e6, 3e6))
        self.assertEqual(context, {"num_cpus": 2})

    def test_even_repetitions_take_the_middle_mean_and_rates(self):
        s = report.Stats("A", [run("A", t, items_per_second=i, bytes_per_second=b)
                               for t, i, b in ((1, 10, 100), (2, 20, 200), (4, 30, 300),
                                               (8, 40, 400))])
        self.assertEqual(s.real_time[0], 3.0)
        self.assertEqual(s.items_per_second, 25)
        self.assertEqual(s.bytes_per_second, 250)

    def test_errors_are_kept_and_listed(self):
        data = {"benchmarks": [run("A", 1.0, error_occurred=True, error_message="init"),
                               run("B", 2.0)]}
        results, _ = report.parse_results(data)
        self.assertEqual(results["A"].error, "init")
        self.assertIsNone(results["B"].error)
        self.assertEqual(report.errors_in(data), [("A", "init")])

    def test_arguments_share_the_function_name(self):
        results, _ = report.parse_results({"benchmarks": [run("Read/1024", 5.0)]})
        self.assertEqual(results["Read/1024"].function, "Read")


class CompareTest(unittest.TestCase):
    def test_improvement_is_a_negative_signed_change(self):
        row = report.compare(stats("A", [10e6, 11e6, 12e6]), stats("A", [5e6, 5.5e6, 6e6]))
        self.assertEqual(row["change"], -5.5e6)
        self.assertAlmostEqual(row["percent"], -50.0)
        self.assertEqual(row["verdict"], "faster")

    def test_regression_is_slower(self):
        row = report.compare(stats("A", [5, 6, 7]), stats("A", [10, 11, 12]))
        self.assertEqual(row["verdict"], "slower")
        self.assertGreater(row["change"], 0)

    def test_change_inside_either_range_is_noise(self):
        # The local median lies outside the baseline range, but not the other way round.
        row = report.compare(stats("A", [10, 10.5, 11]), stats("A", [8, 9, 12]))
        self.assertEqual(row["verdict"], "within noise")
        row = report.compare(stats("A", [8, 9, 12]), stats("A", [10, 10.5, 11]))
        self.assertEqual(row["verdict"], "within noise")

    def test_single_repetition_cannot_be_significant(self):
        row = report.compare(stats("A", [10]), stats("A", [5]))
        self.assertEqual(row["verdict"], "n/a")
        self.assertEqual(row["change"], -5)

    def test_one_sided_and_errored_benchmarks(self):
        self.assertEqual(report.compare(None, stats("A", [1, 2]))["verdict"], "not in baseline")
        self.assertEqual(report.compare(stats("A", [1, 2]), None)["verdict"], "not in local")
        broken = report.Stats("A", [run("A", 1, error_occurred=True, error_message="x")])
        row = report.compare(stats("A", [1, 2]), broken)
        self.assertEqual(row["verdict"], "error")
        self.assertEqual(row["baseline"], 1.5)


class FloorTest(unittest.TestCase):
    def test_floor_table_points_at_floor_benchmarks(self):
        for function, floor in report.FLOORS.items():
            self.assertTrue(floor.startswith("Floor"), function)
            self.assertFalse(function.startswith("Floor"), function)

    def test_ratio_is_time_over_floor_time(self):
        results = {"ArrayViewGetInt32": stats("ArrayViewGetInt32", [300, 310, 320]),
                   "FloorCopyInt32": stats("FloorCopyInt32", [200, 200, 200])}
        self.assertAlmostEqual(report.floor_ratio(results, "ArrayViewGetInt32"), 1.55)
        self.assertIsNone(report.floor_ratio(results, "FloorCopyInt32"))
        self.assertIsNone(report.floor_ratio({}, "ArrayViewGetInt32"))

    def test_benchmark_with_arguments_uses_the_floor_with_the_same_arguments(self):
        results = {"IpcReadDictionaryDeltas/1000": stats("IpcReadDictionaryDeltas/1000",
                                                         [400, 400, 400]),
                   "FloorMemcpyDictionaryDeltas/1000": stats(
                       "FloorMemcpyDictionaryDeltas/1000", [100, 100, 100]),
                   "FloorMemcpyDictionaryDeltas/250": stats(
                       "FloorMemcpyDictionaryDeltas/250", [25, 25, 25])}
        self.assertAlmostEqual(
            report.floor_ratio(results, "IpcReadDictionaryDeltas/1000"), 4.0)
        self.assertIsNone(report.floor_ratio(results, "IpcReadDictionaryDeltas/500"))


SOURCE = """// Things to measure.
// Second line.

#include <benchmark/benchmark.h>

void Helper(benchmark::State& state, int x) {
  if (x) { state.SkipWithError("}"); }
}

/// Do a thing
///
/// With a paragraph that
/// spans two lines.
static void DoThing(benchmark::State& state) {
  for (auto _ : state) {
    Helper(state, '{');
  }
}

static void Undocumented(benchmark::State& state) { Helper(state, 0); }
"""


class ParseSourceTest(unittest.TestCase):
    def test_doc_comment_title_paragraph_and_lines(self):
        comment, docs = report.parse_source(SOURCE)
        self.assertEqual(comment, "Things to measure. Second line.")
        self.assertEqual(docs["DoThing"]["title"], "Do a thing")
        self.assertEqual(docs["DoThing"]["description"], "With a paragraph that spans two lines.")
        self.assertEqual((docs["DoThing"]["first_line"], docs["DoThing"]["last_line"]), (10, 18))
        self.assertEqual(docs["Undocumented"]["title"], "")
        self.assertEqual((docs["Undocumented"]["first_line"],
                          docs["Undocumented"]["last_line"]), (20, 20))
        self.assertEqual(docs["Helper"]["last_line"], 8)

    def test_real_benchmark_files_document_every_benchmark(self):
        bench = os.path.dirname(os.path.abspath(__file__))
        for entry in sorted(os.listdir(bench)):
            if not entry.endswith("_benchmark.cc"):
                continue
            with open(os.path.join(bench, entry), encoding="utf-8") as f:
                text = f.read()
            _, docs = report.parse_source(text)
            for name in re.findall(r"^BENCHMARK\((\w+)\)", text, re.M):
                self.assertTrue(docs.get(name, {}).get("title"), "%s: %s" % (entry, name))
                self.assertTrue(docs[name]["description"], "%s: %s" % (entry, name))


class RenderTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        out = self.dir.name
        repo = os.path.join(out, "repo")
        os.makedirs(os.path.join(repo, "bench"))
        with open(os.path.join(repo, "bench", "x_benchmark.cc"), "w") as f:
            f.write(SOURCE)
        _, functions = report.parse_source(SOURCE)

        def write(config, benchmarks, suffix=""):
            os.makedirs(os.path.join(out, "raw", config), exist_ok=True)
            path = os.path.join("raw", config, "x_benchmark%s.json" % suffix)
            with open(os.path.join(out, path), "w") as f:
                json.dump({"context": {"host_name": "h", "num_cpus": 2},
                           "benchmarks": benchmarks}, f)
            return path

        floor = report.FLOORS["ArrayViewGetInt32"]
        local = [write("local", [run("DoThing", t, unit="us", items_per_second=1e9)
                                 for t in (1.0, 1.1)] +
                       [run("ArrayViewGetInt32", t) for t in (300, 300)] +
                       [run(floor, t) for t in (200, 200)] +
                       [run("New|Pipe", 5, error_occurred=True, error_message="boom")]),
                 write("local", [run("DoThing", 1.2, unit="us")], ".round2")]
        base = write("v1", [run("DoThing", t, unit="us") for t in (2.0, 2.1, 2.2)] +
                     [run("ArrayViewGetInt32", t) for t in (300, 301)] +
                     [run(floor, t) for t in (200, 201)])
        docs = {"x_benchmark": {"comment": "Things", "source": "bench/x_benchmark.cc",
                                "functions": functions}}
        self.manifest = {
            "title": "T <&>", "repo_root": repo, "out_dir": out, "configurations": [
                {"name": "local", "baseline": False, "status": "ok", "description": "tree",
                 "groups": {"x_benchmark": {"json": local, "error": None}}, "docs": docs},
                {"name": "v1", "baseline": True, "status": "ok", "description": "tag",
                 "details": {"Commit": "abc"},
                 "groups": {"x_benchmark": {"json": base, "error": None}}, "docs": docs},
                {"name": "v0", "baseline": True, "status": "predates the benchmark suite",
                 "groups": {}}]}

    def tearDown(self):
        self.dir.cleanup()

    def test_rounds_are_pooled(self):
        r = report.Report(self.manifest)
        self.assertEqual(r.results["local"]["DoThing"].repetitions, 3)
        self.assertEqual(r.results["local"]["DoThing"].real_time, (1100.0, 1000.0, 1200.0))

    def test_summary_rows(self):
        r = report.Report(self.manifest)
        rows = {row["name"]: row for row in r.summary_rows(r.baselines[0])}
        self.assertEqual(rows["DoThing"]["verdict"], "faster")
        self.assertEqual(report.summary_cells(rows["DoThing"], True)[3], "-1.00 µs")
        self.assertEqual(rows["New|Pipe"]["verdict"], "not in baseline")
        self.assertAlmostEqual(rows["ArrayViewGetInt32"]["floor"], 1.5)
        self.assertTrue(rows[report.FLOORS["ArrayViewGetInt32"]]["is_floor"])

    def test_markdown_report(self):
        text = report.render_markdown(report.Report(self.manifest))
        for heading in ("## Configurations", "## Summary", "### local vs v1", "## x_benchmark",
                        "### DoThing"):
            self.assertIn(heading + "\n", text)
        self.assertIn("| v0 |  | not available: predates the benchmark suite |", text)
        self.assertIn("**Do a thing**", text)
        self.assertIn("With a paragraph that spans two lines.", text)
        self.assertIn("[source](repo/bench/x_benchmark.cc#L10-L18)", text)
        self.assertIn("| DoThing | 2.10 µs | 1.10 µs | -1.00 µs | -47.6 % | faster |  |", text)
        self.assertIn("New\\|Pipe", text)
        self.assertIn("error: boom", text)
        self.assertIn("| local | 100 | 1.10 µs | 9.1 % |", text)

    def test_html_report_is_well_formed_and_escaped(self):
        text = report.render_html(report.Report(self.manifest))
        self.assertNotIn("T <&>", text)
        self.assertIn("T &lt;&amp;&gt;", text)
        self.assertNotIn("http://", text.replace('xmlns="http://www.w3.org/2000/svg"', ""))
        self.assertNotIn("https://", text)
        svgs = re.findall(r"<svg.*?</svg>", text, re.S)
        self.assertGreaterEqual(len(svgs), 3)
        for svg in svgs:
            ElementTree.fromstring(svg)

    def test_local_only_summary_and_files(self):
        manifest = dict(self.manifest, configurations=self.manifest["configurations"][:1])
        r = report.write_reports(manifest)
        self.assertEqual(r.baselines, [])
        text = report.render_summary_text(r)
        self.assertIn("Summary: local", text)
        self.assertIn("DoThing", text)
        for name in ("report.md", "report.html"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir.name, name)) > 0)


if __name__ == "__main__":
    unittest.main()
