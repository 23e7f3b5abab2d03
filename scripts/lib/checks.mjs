// The pass/fail tally of the release checks (jsr-check, pack-check): each check
// runs, prints `ok   name — note` or `FAIL name` with its message indented, and
// is counted, so the script's last line can report `passed=N failed=N`.

/** A fresh tally: `check(name, fn)` runs fn (its return value is the note) and counts the outcome in `counts`. */
export function checks() {
  const counts = { passed: 0, failed: 0 };
  function check(name, fn) {
    try {
      const note = fn();
      counts.passed++;
      console.log(`ok   ${name}${note ? ` — ${note}` : ''}`);
    } catch (e) {
      counts.failed++;
      console.log(
        `FAIL ${name}\n     ${String(e instanceof Error ? e.message : e)
          .split('\n')
          .join('\n     ')}`,
      );
    }
  }
  return { check, counts };
}
