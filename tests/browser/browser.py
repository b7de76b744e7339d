"""Headless Debian Chromium for the report and animator pages (issue 31), shared by the browser
tests (test_pages.py), the screenshots script (screenshots.py) and the open-time bench
(benches/compare/view_open.py).

The pages are written by the `guarantor` binary (GUARANTOR_BIN, default target/debug/guarantor)
and opened as file:// URLs. Chromium runs with the flags the machine needs (headless, no sandbox
as root, no network services: the machine's network is closed), a fresh profile each time, and
the browser and performance logs on, so that a test can read console errors and every request.
"""
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# The models of the three pages (all inside the repository).
DINING = "benchmarks/dining/dining.lts"
BRIDGE = ("crates/fsp/tests/data/asifmahmuddev-ltsa/src/main/resources/ic/doc/ltsa/example/"
          "chapter7_lts/CongestedSingleLaneBridge.lts")
PAGES = {
    "buggy": ["check", "-q", DINING, "--target", "BUGGY"],
    "classic": ["check", "-q", DINING, "--target", "CLASSIC"],
    "progress": ["check", "-q", BRIDGE, "--progress"],
    "animate": ["animate", DINING, "--target", "BUGGY"],
}


def binary():
    return os.environ.get("GUARANTOR_BIN", str(ROOT / "target" / "debug" / "guarantor"))


def write_page(args, out_dir, name):
    """Runs the binary with `args` plus `--html`; returns the page's path."""
    path = Path(out_dir) / f"{name}.html"
    done = subprocess.run([binary(), *args, "--html", str(path)], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode not in (0, 1) or not path.exists():
        raise RuntimeError(f"{args} exited {done.returncode}: {done.stderr}")
    return path


def available():
    """Why the browser cannot run here, or None."""
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not Path(tool).exists():
            return f"{tool} is missing (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is missing (pip install selenium)"
    return None


class Browser:
    """One headless Chromium driven by chromedriver (selenium), with a fresh profile."""

    def __init__(self, width=1280, height=1600):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="guarantor-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER),
                                       options=options)
        # The browser's own start (its new-tab page) is not the page's doing: flush its logs.
        self.driver.get("about:blank")
        self.requests()
        self.driver.get_log("browser")

    def open(self, path, fragment=""):
        url = Path(path).resolve().as_uri() + fragment
        self.driver.get(url)
        self.wait_ready()
        return url

    def wait_ready(self):
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(self.driver, 10).until(
            lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))

    def console_errors(self):
        return [e for e in self.driver.get_log("browser") if e.get("level") == "SEVERE"]

    def requests(self):
        """Every URL the page asked for since the last call (performance log)."""
        urls = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def close(self):
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)
