#!/usr/bin/env python3
"""Screenshots of the report and animator pages for README's "Pictures" section (issue 31):
docs/pictures/report-violation.png (dining BUGGY, N=3), report-deadlock.png (the textbook dining
philosophers), report-progress.png (LTSA's congested single-lane bridge) and animator.png (the
violation's report with its trace stepped half way in the animator).

Run by hand after changing the pages (CI does not run it, nor commit its output):
    cargo build -p guarantor-cli && python3 tests/browser/screenshots.py
Needs Debian's chromium and chromium-driver and selenium, as the browser tests do.
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import browser  # noqa: E402

OUT = browser.ROOT / "docs" / "pictures"
SHOTS = {"report-violation": "buggy", "report-deadlock": "classic", "report-progress": "progress"}


def main():
    why = browser.available()
    if why:
        sys.exit(why)
    OUT.mkdir(parents=True, exist_ok=True)
    work = tempfile.mkdtemp(prefix="guarantor-shots-")
    pages = {name: browser.write_page(args, work, name) for name, args in browser.PAGES.items()}
    b = browser.Browser(width=1200, height=1250)
    try:
        for shot, page in SHOTS.items():
            b.open(pages[page])
            b.driver.save_screenshot(str(OUT / f"{shot}.png"))
            print(OUT / f"{shot}.png")
        b.open(pages["buggy"])
        actions = b.driver.execute_script(
            "return JSON.parse(document.getElementById('model').textContent).run.actions")
        b.driver.execute_script("""
            for (const a of arguments[0]) {
                const b = Array.from(document.querySelectorAll('#enabled button'))
                    .find(b => b.dataset.action === a);
                if (b) b.click();
            }
            document.getElementById('animator').scrollIntoView();""", actions[:len(actions) // 2])
        b.driver.save_screenshot(str(OUT / "animator.png"))
        print(OUT / "animator.png")
    finally:
        b.close()


if __name__ == "__main__":
    main()
