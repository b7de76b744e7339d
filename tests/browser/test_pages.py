"""Browser tests of the report and animator pages (issue 31), in Debian's headless Chromium.

For the report of a violation (dining BUGGY, N=3), of a deadlock (the textbook dining
philosophers, CLASSIC) and of a progress violation (LTSA's congested single-lane bridge): the
page loads with no console error and no request beyond its own file; the chart has one lane per
component and property and one step per trace action; each drawing of a lane the run moves
highlights the path (in the page's colour). The animator clicks through the violation's trace,
reaches ERROR, and undoes a step; the animator page reaches ERROR from a #trace= address, and
tells a deadlock from every component at its END.

Run: `python3 tests/browser/test_pages.py` after building the binary. With GUARANTOR_BROWSER=require
(as .ci/run sets it) a missing browser fails; otherwise the tests are skipped with the reason.
"""
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402

PATH_RED = "rgb(192, 57, 43)"


class Pages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = browser.available()
        if why:
            if os.environ.get("GUARANTOR_BROWSER") == "require":
                raise RuntimeError(f"the browser tests are required: {why}")
            raise unittest.SkipTest(why)
        cls.dir = tempfile.mkdtemp(prefix="guarantor-pages-")
        cls.pages = {name: browser.write_page(args, cls.dir, name)
                     for name, args in browser.PAGES.items()}
        # Two processes that end (FSP's END) after a shared `a`: termination, not a deadlock.
        ends = Path(cls.dir) / "ends.lts"
        ends.write_text("P = (a -> END).\nQ = (a -> b -> END).\n||S = (P || Q).\n")
        cls.pages["ends"] = browser.write_page(["animate", str(ends)], cls.dir, "ends")
        cls.b = browser.Browser()

    @classmethod
    def tearDownClass(cls):
        cls.b.close()

    def js(self, script, *args):
        return self.b.driver.execute_script(script, *args)

    def load(self, name, fragment=""):
        self.b.requests()  # drop what earlier pages asked for
        url = self.b.open(self.pages[name], fragment)
        self.assertEqual(self.b.console_errors(), [], f"console errors on {name}")
        own = url.split("#")[0]
        foreign = [u for u in self.b.requests()
                   if u.split("#")[0] != own and not u.startswith("data:")]
        self.assertEqual(foreign, [], f"{name} asked the network for something")

    def model(self):
        return self.js("return JSON.parse(document.getElementById('model').textContent)")

    def check_report(self, name, verdict):
        self.load(name)
        self.assertEqual(self.js("return document.getElementById('verdict').textContent"), verdict)
        model = self.model()
        system = [l for l in model["lanes"] if l["system"]]
        lanes = self.js("return document.querySelectorAll('#chart g.lane').length")
        self.assertEqual(lanes, len(system))
        steps = self.js("return Array.from(document.querySelectorAll('#chart g.step'))"
                        ".map(g => g.dataset.action)")
        self.assertEqual(steps, model["run"]["actions"])
        # Each lane the run moves is drawn with its path in the highlight colour.
        moved = self.js("""
            const moved = new Set();
            document.querySelectorAll('#chart g.step').forEach(g =>
                g.dataset.lanes.split(' ').filter(x => x).forEach(l => moved.add(Number(l))));
            return Array.from(moved);""")
        self.assertTrue(moved)
        for lane in moved:
            colours = self.js(
                "return Array.from(document.querySelectorAll("
                "'figure.drawing[data-lane=\"' + arguments[0] + '\"] .tr.path path'))"
                ".map(p => getComputedStyle(p).stroke)", lane)
            self.assertTrue(colours, f"lane {lane} highlights no edge")
            self.assertEqual(set(colours), {PATH_RED})
        return model

    def test_violation_report(self):
        model = self.check_report("buggy", "violated")
        self.assertEqual(len(model["run"]["actions"]), 12)
        self.assertEqual(self.js("return document.querySelectorAll('#chart g.step.bad').length"), 1)

    def test_deadlock_report(self):
        model = self.check_report("classic", "deadlock")
        self.assertEqual(len(model["run"]["actions"]), 3)
        self.assertEqual(self.js("return document.querySelectorAll('#chart g.deadlock').length"), 1)

    def test_progress_report(self):
        model = self.check_report("progress", "violated")
        start = model["run"]["start"]
        cycle = self.js("return document.querySelectorAll('#chart g.step.cycle').length")
        self.assertEqual(cycle, len(model["run"]["actions"]) - start)
        self.assertGreater(cycle, 0)

    def test_animator_clicks_through_the_counterexample_then_undoes(self):
        self.load("buggy")
        actions = self.model()["run"]["actions"]
        for i, action in enumerate(actions):
            self.assertEqual(self.js("return document.getElementById('status').dataset.state"),
                             "running", f"before step {i + 1}")
            clicked = self.js(
                "const b = Array.from(document.querySelectorAll('#enabled button'))"
                ".find(b => b.dataset.action === arguments[0]);"
                "if (!b) return false; b.click(); return true;", action)
            self.assertTrue(clicked, f"step {i + 1}: {action} is not enabled")
        status = self.js("return document.getElementById('status')")
        self.assertEqual(status.get_attribute("data-state"), "error")
        self.assertIn("NOTALL", status.text)
        self.assertEqual(self.js("return document.querySelectorAll('#trace li').length"),
                         len(actions))
        # Every component shows its current state in its drawing.
        current = self.js("return document.querySelectorAll('figure.drawing.component .st.cur')"
                          ".length")
        self.assertGreaterEqual(current, 7)
        self.b.driver.find_element("id", "undo").click()
        self.assertEqual(self.js("return document.getElementById('status').dataset.state"),
                         "running")
        self.assertEqual(self.js("return document.querySelectorAll('#trace li').length"),
                         len(actions) - 1)
        enabled = self.js("return Array.from(document.querySelectorAll('#enabled button'))"
                          ".map(b => b.dataset.action)")
        self.assertIn(actions[-1], enabled)
        self.assertEqual(self.b.console_errors(), [])

    def test_animator_page_starts_from_a_trace(self):
        self.load("buggy")
        actions = self.model()["run"]["actions"]
        self.load("animate", "#trace=" + ",".join(actions))
        self.assertEqual(self.js("return document.getElementById('status').dataset.state"),
                         "error")
        self.assertEqual(self.js("return document.querySelectorAll('#trace li').length"),
                         len(actions))


    def test_animator_tells_termination_from_deadlock(self):
        self.load("ends", "#trace=a,b")
        self.assertEqual(self.js("return document.getElementById('status').dataset.state"), "end")
        self.b.driver.find_element("id", "undo").click()
        self.assertEqual(self.js("return document.getElementById('status').dataset.state"),
                         "running")
        self.load("classic", "#trace=" + ",".join(["phil.0.getleft", "phil.1.getleft",
                                                   "phil.2.getleft"]))
        self.assertEqual(self.js("return document.getElementById('status').dataset.state"),
                         "deadlock")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    run = result.testsRun - len(result.skipped)
    failed = len(result.failures) + len(result.errors)
    print(f"browser: {run - failed} passed, {failed} failed, {len(result.skipped)} skipped")
    sys.exit(1 if failed or not result.wasSuccessful() else 0)
