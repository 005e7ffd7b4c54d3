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


def rounds(name, cpus, real_factor=2.0):
    """Stats of one benchmark run once per round, with these CPU times (ns); real time
    is real_factor times the CPU time, as on a machine shared with other processes."""
    return report.Stats(name, [[run(name, c * real_factor, cpu=c)] for c in cpus])


class CompareTest(unittest.TestCase):
    """The verdict rule, on synthetic timings of interleaved rounds."""

    def test_noise_is_no_change(self):
        # Both binaries wander by a few percent between rounds; the medians differ by
        # less than that spread.
        row = report.compare(rounds("A", [100, 103, 98, 101, 99]),
                             rounds("A", [101, 99, 104, 100, 97]))
        self.assertEqual(row["verdict"], "no change")
        self.assertAlmostEqual(row["percent"], 0.0)
        self.assertAlmostEqual(row["noise"], 7.0)  # (104 - 97) / 100

    def test_large_difference_inside_a_noisy_spread_is_no_change(self):
        # 15 % faster, but the baseline alone moved by 50 % between its rounds.
        row = report.compare(rounds("A", [100, 140, 90, 120, 95]),
                             rounds("A", [85, 86, 84, 85, 85]))
        self.assertAlmostEqual(row["percent"], -15.0)
        self.assertAlmostEqual(row["noise"], 50.0)
        self.assertEqual(row["verdict"], "no change")

    def test_real_improvement_is_faster(self):
        row = report.compare(rounds("A", [100, 102, 99, 101, 100]),
                             rounds("A", [80, 81, 79, 80, 82]))
        self.assertEqual(row["verdict"], "faster")
        self.assertAlmostEqual(row["percent"], -20.0)
        self.assertAlmostEqual(row["change"], -20.0)

    def test_real_regression_is_slower(self):
        row = report.compare(rounds("A", [100, 102, 99, 101, 100]),
                             rounds("A", [110, 111, 109, 112, 110]))
        self.assertEqual(row["verdict"], "slower")
        self.assertGreater(row["change"], 0)

    def test_change_just_inside_the_noise_is_not_called(self):
        # local's own rounds spread 10 %: a 9 % change is not told apart from it.
        row = report.compare(rounds("A", [100, 100, 100]), rounds("A", [104, 109, 114]))
        self.assertAlmostEqual(row["noise"], 100.0 * 10 / 109)
        self.assertEqual(row["verdict"], "no change")
        row = report.compare(rounds("A", [100, 100, 100]), rounds("A", [112, 113, 114]))
        self.assertEqual(row["verdict"], "slower")

    def test_verdict_follows_the_metric(self):
        # Same CPU time; real time doubled in local (a busier machine, not the code).
        base = report.Stats("A", [[run("A", 200, cpu=100)] for _ in range(3)])
        local = report.Stats("A", [[run("A", r, cpu=100)] for r in (390, 400, 410)])
        self.assertEqual(report.compare(base, local, "cpu_time")["verdict"], "no change")
        self.assertEqual(report.compare(base, local, "real_time")["verdict"], "slower")

    def test_a_round_is_the_median_of_its_repetitions(self):
        s = report.Stats("A", [[run("A", 1, cpu=c) for c in (10, 11, 50)],
                               [run("A", 1, cpu=c) for c in (12, 13, 14)]])
        self.assertEqual(s.samples["cpu_time"], [11, 13])
        self.assertEqual(s.rounds, 2)
        self.assertEqual(s.repetitions, 6)

    def test_single_round_uses_its_repetitions(self):
        s = stats("A", [10, 11, 12])
        self.assertEqual(s.sample_count("real_time"), 3)

    def test_one_sample_cannot_be_significant(self):
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

    def test_noise_summary_uses_floors_as_the_machine_noise(self):
        rows = [{"name": "A", "noise": 4.0, "is_floor": False, "percent": 1.0},
                {"name": "B", "noise": 8.0, "is_floor": False, "percent": -30.0},
                {"name": "C", "noise": 6.0, "is_floor": False, "percent": 2.0},
                {"name": "FloorX", "noise": 40.0, "is_floor": True, "percent": -45.0}]
        summary = report.noise_summary(rows)
        self.assertEqual((summary["median"], summary["max"], summary["max_name"]),
                         (6.0, 8.0, "B"))
        self.assertEqual((summary["floor_max"], summary["floor_name"]), (45.0, "FloorX"))
        sentence = report.noise_sentence(summary, "v1")
        self.assertIn("median 6.0 %", sentence)
        self.assertIn("up to 45.0 % (FloorX)", sentence)


def floor_name():
    return report.FLOORS["ArrayViewGetInt32"]


class FloorTest(unittest.TestCase):
    def test_floors_are_recognised(self):
        self.assertTrue(report.is_floor("FloorCopyInt8"))
        self.assertTrue(report.is_floor("FloorMemcpyFloat64Read"))
        self.assertFalse(report.is_floor("ArrayViewGetInt8"))

    def test_floor_table_points_at_floor_benchmarks(self):
        for function, floor in report.FLOORS.items():
            self.assertTrue(floor.startswith("Floor"), function)
            self.assertFalse(function.startswith("Floor"), function)

    def test_ratio_is_time_over_floor_time(self):
        results = {"ArrayViewGetInt32": stats("ArrayViewGetInt32", [300, 310, 320]),
                   "FloorCopyInt32": stats("FloorCopyInt32", [200, 200, 200])}
        self.assertAlmostEqual(report.floor_ratio(results, "ArrayViewGetInt32", "real_time"),
                               1.55)
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

        # Three rounds per configuration, one file per round (bench/run writes one per
        # benchmark and round; the loader takes either).
        floor = report.FLOORS["ArrayViewGetInt32"]

        def round_runs(do_thing, view, floor_time):
            return ([run("DoThing", do_thing, unit="us", items_per_second=1e9),
                     run("ArrayViewGetInt32", view), run(floor, floor_time)])

        local = [write("local", round_runs(1.0, 300, 200) +
                       [run("New|Pipe", 5, error_occurred=True, error_message="boom")],
                       ".round1"),
                 write("local", round_runs(1.1, 300, 200), ".round2"),
                 write("local", round_runs(1.2, 302, 201), ".round3")]
        # The floor is 30 % faster in the baseline: machine noise, not a verdict.
        base = [write("v1", round_runs(2.0, 300, 140), ".round1"),
                write("v1", round_runs(2.1, 301, 141), ".round2"),
                write("v1", round_runs(2.2, 300, 140), ".round3")]
        docs = {"x_benchmark": {"comment": "Things", "source": "bench/x_benchmark.cc",
                                "functions": functions}}
        self.long_description = ("working tree at 2395ec7 (Merge a branch whose subject "
                                 "goes on and on about everything it changed, 2026-12-01)")
        self.manifest = {
            "title": "T <&>", "repo_root": repo, "out_dir": out, "configurations": [
                {"name": "local", "baseline": False, "status": "ok",
                 "description": self.long_description,
                 "groups": {"x_benchmark": {"json": local, "error": None}}, "docs": docs},
                {"name": "v1", "baseline": True, "status": "ok", "description": "tag",
                 "details": {"Commit": "abc"},
                 "groups": {"x_benchmark": {"json": base, "error": None}}, "docs": docs},
                {"name": "v0", "baseline": True, "status": "predates the benchmark suite",
                 "groups": {}}]}

    def tearDown(self):
        self.dir.cleanup()

    def test_rounds_are_samples(self):
        r = report.Report(self.manifest)
        stats_ = r.results["local"]["DoThing"]
        self.assertEqual((stats_.rounds, stats_.repetitions), (3, 3))
        self.assertEqual(stats_.cpu_time, (1100.0, 1000.0, 1200.0))

    def test_summary_rows(self):
        r = report.Report(self.manifest)
        rows = {row["name"]: row for row in r.summary_rows(r.baselines[0])}
        self.assertEqual(rows["DoThing"]["verdict"], "faster")
        self.assertAlmostEqual(rows["DoThing"]["noise"], 100.0 * 200 / 1100)
        self.assertEqual(rows["ArrayViewGetInt32"]["verdict"], "no change")
        self.assertEqual(rows["New|Pipe"]["verdict"], "not in baseline")
        self.assertAlmostEqual(rows["ArrayViewGetInt32"]["floor"], 1.5)

    def test_floor_rows_never_get_a_verdict(self):
        r = report.Report(self.manifest)
        row = {row["name"]: row for row in r.summary_rows(r.baselines[0])}[floor_name()]
        self.assertTrue(row["is_floor"])
        self.assertGreater(row["percent"], 40)     # far outside its noise...
        self.assertEqual(row["verdict"], "reference")  # ...and still no verdict
        cells = report.summary_cells(row, True)
        self.assertEqual(cells[0], floor_name() + " (floor)")
        self.assertNotIn(cells[5], ("faster", "slower"))

    def test_markdown_report(self):
        text = report.render_markdown(report.Report(self.manifest))
        for heading in ("## Configurations", "## Summary", "### local vs v1", "## x_benchmark",
                        "### DoThing"):
            self.assertIn(heading + "\n", text)
        self.assertIn("| v0 |  | not available: predates the benchmark suite |", text)
        self.assertIn("**Do a thing**", text)
        self.assertIn("With a paragraph that spans two lines.", text)
        self.assertIn("[source](repo/bench/x_benchmark.cc#L10-L18)", text)
        self.assertIn("| DoThing | 2.10 µs | 1.10 µs | -47.6 % | ±18.2 % | faster | 2.10 µs "
                      "| 1.10 µs |  |", text)
        self.assertIn("| %s (floor) | 140 ns | 200 ns | +42.9 %% | ±0.7 %% | reference |"
                      % floor_name(), text)
        self.assertIn("Noise measured (cpu time, between rounds of the same binary)", text)
        self.assertIn("differed between local and v1 by up to 42.9 %", text)
        self.assertIn("New\\|Pipe", text)
        self.assertIn("error: boom", text)
        self.assertIn("| local | 100 | 1.10 µs | 9.1 % |", text)

    def test_configuration_table_fits_the_page(self):
        text = report.render_markdown(report.Report(self.manifest))
        table = text.split("## Configurations")[1].split("\n\n")[1]
        for line in table.splitlines():
            self.assertLessEqual(len(line), 110, line)
        self.assertIn("working tree at 2395ec7 (Merge a branch whose subject goes on", table)
        self.assertIn("…", table)
        self.assertNotIn(self.long_description, table)

    def test_shorten(self):
        self.assertEqual(report.shorten("short", 10), "short")
        self.assertEqual(report.shorten("one two three four", 16), "one two three…")
        self.assertEqual(len(report.shorten("x" * 50, 20)), 20)

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
        self.assertIn("Noise measured", text)
        self.assertIn("DoThing", text)
        for name in ("report.md", "report.html"):
            self.assertTrue(os.path.getsize(os.path.join(self.dir.name, name)) > 0)


if __name__ == "__main__":
    unittest.main()
