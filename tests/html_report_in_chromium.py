#!/usr/bin/python3
"""The HTML report of a real run, checked in a real browser (issue 17, item 4).

Runs `syncstress run` on a preset whose run breaks a property, writes its page with
`syncstress html`, loads the page in headless Chromium through Selenium and checks:
  - the browser logged no console error (a script error, a blocked load);
  - nothing was fetched: the page is self-contained;
  - the cell table has as many rows as the report has cells;
  - a sim violation's swimlane has its breach step marked (class "breach", id
    violation-N-breach) with the property's message in it;
  - the page's JavaScript ran: the verdict filter shows, hides the cells of an unchecked
    verdict, and a click on a heading sorts the table;
  - without JavaScript every cell, the breach step and the replay command still show;
and writes screenshots (the top of the page, and the breach step of a swimlane) as PNG files.

Needs Debian's chromium, chromium-driver and python3-selenium (scripts/setup installs them):
a missing one fails the test, naming the fix. Run by CTest (tests/CMakeLists.txt) with
Debian's /usr/bin/python3, the one python3-selenium is installed for.
"""

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import time

FIX = "run scripts/setup --lint (it installs chromium, chromium-driver and python3-selenium)"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(command):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    print(f"$ {' '.join(command)}  ({time.monotonic() - started:.1f} s, exit {result.returncode})")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--syncstress", required=True, help="the built syncstress binary")
    parser.add_argument("--work", required=True, help="a directory for the report and the page")
    parser.add_argument("--screenshot", required=True, help="the PNG of the page's top to write")
    parser.add_argument("--scenario", default="all",
                        help="the preset to run (its run must break a property on sim), or "
                        "'all' (the default) for run --all")
    parser.add_argument("--report",
                        help="the report of a run already made (CTest gives the gate's run "
                        "--all), copied into --work instead of running --scenario")
    args = parser.parse_args()

    chromium = shutil.which("chromium")
    driver_binary = shutil.which("chromedriver")
    if chromium is None or driver_binary is None:
        fail(f"chromium or chromedriver is not installed: {FIX}")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError as e:
        fail(f"{sys.executable} cannot import selenium ({e}): {FIX}")

    work = pathlib.Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    report_path = work / "report.json"
    page_path = work / "report.html"

    if args.report is not None:
        if not pathlib.Path(args.report).is_file():
            fail(f"no report at {args.report}: the run that writes it (the gate's) failed")
        shutil.copyfile(args.report, report_path)
    else:
        which = ["--all"] if args.scenario == "all" else ["--scenario", args.scenario]
        result = run([args.syncstress, "run", *which, "--out", str(report_path), "--quiet"])
        if result.returncode not in (0, 1) or not report_path.is_file():
            fail(f"syncstress run exited {result.returncode}: {result.stderr}")
    report = json.loads(report_path.read_text())
    result = run([args.syncstress, "html", str(report_path)])
    if result.returncode != 0 or not page_path.is_file():
        fail(f"syncstress html exited {result.returncode}: {result.stderr}")

    # A violation found on sim (its schedule an ss1 string): numbered as the page and
    # `syncstress replay --violation N` number them, across the cells in order.
    # A failed cell's first, so that the screenshot shows a claimed property breaking.
    number, breach, fallback = 0, None, None
    for cell in report["cells"]:
        for v in cell["violations"]:
            number += 1
            if not v["schedule"].startswith("ss1."):
                continue
            if breach is None and cell["verdict"] == "fail":
                breach = (number, v)
            if fallback is None:
                fallback = (number, v)
    breach = breach or fallback
    if breach is None:
        fail(f"the run of {args.scenario} broke no property on sim: no swimlane to check "
             f"(verdicts: {[c['verdict'] for c in report['cells']]})")

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    started = time.monotonic()
    driver = webdriver.Chrome(service=Service(executable_path=driver_binary), options=options)
    failures = []
    try:
        driver.get(page_path.resolve().as_uri())
        driver.execute_script("return document.readyState")

        rows = driver.find_elements(By.CSS_SELECTOR, "table#cells tbody tr.cell-row")
        print(f"cells: {len(rows)} rows on the page, {len(report['cells'])} in the report "
              f"(summary: {report['summary']['cells']})")
        if len(rows) != len(report["cells"]) or len(rows) != report["summary"]["cells"]:
            failures.append(f"the page shows {len(rows)} cells, the report has "
                            f"{len(report['cells'])} (summary {report['summary']['cells']})")

        n, violation = breach
        found = driver.find_elements(By.ID, f"violation-{n}-breach")
        if not found:
            failures.append(f"no element violation-{n}-breach for violation {n}")
        else:
            element = found[0]
            classes = element.get_attribute("class").split()
            text = element.get_attribute("textContent")
            last_step = violation["trace"][-1].split(" ")[0] if violation["trace"] else ""
            print(f"breach of violation {n}: class {classes}, text {text.strip()[:160]!r}")
            if "breach" not in classes:
                failures.append(f"violation-{n}-breach has no class breach: {classes}")
            if violation["message"] not in text and (not last_step or last_step not in text):
                failures.append(f"the breach step shows neither the message "
                                f"{violation['message']!r} nor step {last_step}: {text!r}")
            if not element.is_displayed():
                failures.append("the breach step is not displayed")

        fetched = driver.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
        if fetched:
            failures.append(f"the page fetched resources: {fetched}")

        # JavaScript: the filter appears and hides the cells of an unchecked verdict.
        verdict_filter = driver.find_element(By.ID, "verdict-filter")
        if not verdict_filter.is_displayed():
            failures.append("the verdict filter is hidden: the page's script did not run")
        else:
            verdicts = [c["verdict"] for c in report["cells"]]
            hide = max(set(verdicts), key=verdicts.count)
            verdict_filter.find_element(By.CSS_SELECTOR, f"input[value='{hide}']").click()
            shown = [r for r in rows if r.is_displayed()]
            print(f"filter: {hide} unchecked, {len(shown)} of {len(rows)} rows shown")
            if len(shown) != len(verdicts) - verdicts.count(hide):
                failures.append(f"unchecking {hide} shows {len(shown)} rows, expected "
                                f"{len(verdicts) - verdicts.count(hide)}")
            verdict_filter.find_element(By.CSS_SELECTOR, f"input[value='{hide}']").click()

        # A click on "steps" sorts by it, ascending.
        heading = driver.find_element(By.XPATH, "//table[@id='cells']/thead//th[text()='steps']")
        heading.click()
        steps = [float(r.get_attribute("data-sort")) for r in driver.find_elements(
            By.CSS_SELECTOR, "table#cells tbody tr.cell-row td:nth-child(7)")]
        if heading.get_attribute("aria-sort") != "ascending" or steps != sorted(steps):
            failures.append(f"a click on 'steps' did not sort ascending: {steps}")
        heading.click()  # back to a stable order for the screenshot: descending steps
        driver.execute_script("window.scrollTo(0, 0)")

        screenshot = pathlib.Path(args.screenshot)
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(screenshot))
        lanes_shot = screenshot.with_name(screenshot.stem + "-swimlane.png")
        if found:
            # The breaching thread's cell centred, in case the lanes scroll sideways.
            cells = found[0].find_elements(By.CSS_SELECTOR, "td.op")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})",
                                  cells[0] if cells else found[0])
            driver.save_screenshot(str(lanes_shot))
        for shot in (screenshot, lanes_shot):
            if not shot.is_file() or shot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
                failures.append(f"no PNG screenshot at {shot}")
            else:
                print(f"screenshot: {shot} ({shot.stat().st_size} bytes)")

        # Last, so that every step above had its chance to log.
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            failures.append(f"console errors: {errors}")

        # Without JavaScript: every cell and the breach still show, the script's controls do
        # not, and the replay command is there as text to select.
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        driver.get(page_path.resolve().as_uri())
        rows = driver.find_elements(By.CSS_SELECTOR, "table#cells tbody tr.cell-row")
        if len([r for r in rows if r.is_displayed()]) != len(report["cells"]):
            failures.append(f"without JavaScript {len(rows)} rows show, expected "
                            f"{len(report['cells'])}")
        if not driver.find_element(By.ID, f"violation-{n}-breach").is_displayed():
            failures.append("without JavaScript the breach step is not displayed")
        command = driver.find_element(By.ID, f"violation-{n}-command")
        if not command.is_displayed() or command.text.strip() != violation["replay_command"]:
            failures.append(f"without JavaScript the replay command shows as {command.text!r}")
        if driver.find_element(By.ID, "verdict-filter").is_displayed() or any(
                b.is_displayed() for b in driver.find_elements(By.CSS_SELECTOR, "button.copy")):
            failures.append("without JavaScript the script's controls show")
        print(f"without JavaScript: {len(rows)} rows, breach and replay command shown")
    finally:
        driver.quit()
    print(f"browser: {time.monotonic() - started:.1f} s")
    if failures:
        for f in failures:
            print(f"FAIL: {f}", file=sys.stderr)
        sys.exit(1)
    print("ok: the page loads in Chromium without console errors, shows every cell and the "
          "breach step")


if __name__ == "__main__":
    main()
