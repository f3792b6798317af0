// Totals one CI run into its closing line "N passed, N failed".
// Arguments: failed gate steps (typecheck, lint), then pairs of (test report, exit status): vitest's JSON,
// Playwright's JSON, node's test runner TAP.
// A suite that exited non-zero without reporting a failure (it crashed or could not start) counts one failure.
import { existsSync, readFileSync } from "node:fs";

const [gateFailuresArg, vitestReport, vitestStatus, e2eReport, e2eStatus, scriptsReport, scriptsStatus] =
  process.argv.slice(2);
let passed = 0;
let failed = Number(gateFailuresArg ?? 0);

function count(name, reportPath, status, read, parse = JSON.parse) {
  const { ok, bad } = existsSync(reportPath) ? read(parse(readFileSync(reportPath, "utf8"))) : { ok: 0, bad: 0 };
  const crashed = Number(status) !== 0 && bad === 0 ? 1 : 0;
  console.log(`${name}: ${ok} passed, ${bad + crashed} failed${crashed ? " (the suite did not finish)" : ""}`);
  passed += ok;
  failed += bad + crashed;
}

count("workerd", vitestReport, vitestStatus, (report) => ({
  ok: report.numPassedTests,
  bad:
    report.numFailedTests +
    report.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length,
}));
count("browser", e2eReport, e2eStatus, ({ stats, errors = [] }) => {
  // Flaky: failed once, passed on the retry (the dev server's known connection drops, docs/decisions/0004).
  if (stats.flaky > 0) console.log(`browser: ${stats.flaky} test(s) passed only on retry; see the report above`);
  return { ok: stats.expected + stats.flaky, bad: stats.unexpected + errors.length };
});

// node --test's TAP ends with "# pass N", "# fail N" and "# cancelled N" (tests stopped by a timeout or by a failed
// `before` hook); the last such line counts, in case a test printed something alike.
count(
  "scripts",
  scriptsReport,
  scriptsStatus,
  (text) => {
    const total = (key) => Number([...text.matchAll(new RegExp(`^# ${key} (\\d+)$`, "gm"))].at(-1)?.[1] ?? 0);
    return { ok: total("pass"), bad: total("fail") + total("cancelled") };
  },
  (text) => text,
);

// The script tests print their reasons (a dev server's last output among them) far above this line: repeat each
// failure's block of the TAP here, near the end, where a truncated CI log still shows it.
if (existsSync(scriptsReport)) {
  const lines = readFileSync(scriptsReport, "utf8").split("\n");
  lines.forEach((line, at) => {
    if (!/^\s*not ok \d+/.test(line)) return;
    const indent = line.search(/\S/);
    const block = [line];
    for (const next of lines.slice(at + 1)) {
      if (next.trim() !== "" && next.search(/\S/) <= indent) break;
      block.push(next);
    }
    console.log(block.slice(0, 80).join("\n"));
  });
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
