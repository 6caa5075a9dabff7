/**
 * `npm test`: once the islands and the binary are compiled, three lanes side by side: the browser end-to-end
 * suite (Debian's /usr/bin/chromium); lint and types, then the unit/API suite on SQLite; the engine-dependent
 * files again on PostgreSQL, then the crash and cluster tests. One closing line `N passed, N failed` is counted
 * from the runners' own summaries.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { engineMark, runsProcesses } from "../tests/engine-marks";

const root = join(import.meta.dir, "..");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

interface Outcome {
  passed: number;
  failed: number;
  exitCode: number;
  /** The output of a `held` run, for its caller to print. */
  held?: string;
}

/** Runs one test command; `held` keeps its output for the caller (a run beside another is printed after it, whole). */
async function run(cmd: string[], opts: { held?: boolean; env?: Record<string, string> } = {}): Promise<Outcome> {
  const shown = [...Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`), ...cmd].join(" ");
  if (!opts.held) console.log(`$ ${shown}`);
  const proc = Bun.spawn(cmd, { cwd: root, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...opts.env } });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const s = decoder.decode(chunk, { stream: true });
      text += s;
      if (!opts.held) out.write(s);
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const exitCode = await proc.exited;
  const count = (word: string) => Number(text.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"))?.[1] ?? 0);
  const held = opts.held ? `$ ${shown}\n${text}` : undefined;
  return { passed: count("pass"), failed: count("fail"), exitCode, held };
}

/** Lint and format (Biome) and types (tsc): each that fails counts as one failure. */
async function check(name: string, cmd: string[]): Promise<Outcome> {
  const { exitCode, held } = await run(cmd, { held: true });
  return {
    passed: 0,
    failed: exitCode === 0 ? 0 : 1,
    exitCode: 0,
    held: exitCode === 0 ? held : `${held}${name} failed`,
  };
}

/** Prints a run's output, whole, as soon as it ends (runs side by side finish in any order). */
async function printed(outcome: Promise<Outcome>): Promise<Outcome> {
  const done = await outcome;
  if (done.held) console.log(done.held);
  return done;
}

const bin = (name: string) => join(root, "node_modules", ".bin", name);
const testFiles = [...new Bun.Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: root })].sort();
const textOf = (file: string) => readFileSync(join(root, file), "utf8");
const args = (files: string[]) => files.map((f) => `./${f}`);
// The crash and cluster tests (`// @group processes`, tests/engine-marks.ts) run apart, in a process of their own.
const processTests = testFiles.filter((f) => runsProcesses(textOf(f)));
/**
 * The files whose behaviour depends on the engine (`// @engine each`, see tests/engine-marks.ts) again on
 * PostgreSQL, a throwaway cluster (tests/pg-harness.ts).
 */
const hasPostgres = Boolean(Bun.which("initdb") && Bun.which("pg_ctl"));
const onBothEngines = (files: string[]) => files.filter((f) => engineMark(textOf(f)) === "each");
const onPostgres = { env: { TEST_ENGINE: "postgres" } };

/**
 * The crash and cluster tests mostly wait on their servers: on SQLite and then (those marked each) on
 * PostgreSQL, with the time a restarted server needs.
 */
async function runProcessTests(): Promise<Outcome> {
  const cmd = ["bun", "test", "--timeout", "60000"];
  const onSqlite = await run([...cmd, ...args(processTests)], { held: true });
  const pgFiles = hasPostgres ? onBothEngines(processTests) : [];
  if (!pgFiles.length) return onSqlite;
  const pg = await run([...cmd, ...args(pgFiles)], { held: true, ...onPostgres });
  return {
    passed: onSqlite.passed + pg.passed,
    failed: onSqlite.failed + pg.failed,
    exitCode: onSqlite.exitCode || pg.exitCode,
    held: `${onSqlite.held}\n${pg.held}`,
  };
}

async function runPostgresTests(): Promise<Outcome> {
  if (!hasPostgres) {
    console.log("PostgreSQL run skipped: no initdb and pg_ctl on PATH (apt-get install postgresql)");
    return { passed: 0, failed: 0, exitCode: 0 };
  }
  const files = onBothEngines(testFiles.filter((f) => !processTests.includes(f)));
  // Each query is a round trip to a server here, which a loaded machine makes slower still: a test that waits
  // for a reconnect or a Baileys session gets the process tests' time.
  return await run(["bun", "test", "--timeout", "60000", ...args(files)], { held: true, ...onPostgres });
}

/**
 * The browser files, on the islands and the binary compiled before them (tests/e2e/binary.e2e.ts runs the
 * binary named by ZAPDESK_BINARY instead of compiling its own).
 */
async function runBrowserTests(compiled: Outcome): Promise<Outcome> {
  const e2eFiles = [...new Bun.Glob("tests/e2e/*.e2e.ts").scanSync({ cwd: root })].sort();
  if (e2eFiles.length === 0) return { passed: 0, failed: 0, exitCode: 0 };
  if (compiled.exitCode !== 0) return { passed: 0, failed: 1, exitCode: compiled.exitCode, held: compiled.held };
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI) {
      console.error(`browser tests need ${CHROMIUM} (apt-get install -y chromium)`);
      return { passed: 0, failed: e2eFiles.length, exitCode: 1 };
    }
    console.warn(
      `skipping ${e2eFiles.length} browser test file(s): ${CHROMIUM} is not installed (apt-get install -y chromium)`,
    );
    return { passed: 0, failed: 0, exitCode: 0 };
  }
  const env = { ZAPDESK_BINARY: join(root, "dist", "zapdesk") };
  return await run(["bun", "test", "--timeout", "60000", ...e2eFiles.map((f) => `./${f}`)], { held: true, env });
}

/** Runs `steps` one after the other, each printed as it ends. */
async function inTurn(...steps: (() => Promise<Outcome>)[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const step of steps) outcomes.push(await printed(step()));
  return outcomes;
}

/**
 * Once the islands and the binary are compiled (a few seconds), three lanes side by side: the browser suite,
 * the longest, which mostly waits on chromium and its server one step at a time; lint and types, then the
 * SQLite run; the PostgreSQL run (which waits on its server), then the process tests (which wait on theirs).
 * Each timing-sensitive run shares the machine with two others at most, as when the browser suite came last.
 * A loaded machine makes each step slower: the SQLite run gives each test 20 s.
 */
const compiled = await run(["bun", "run", "compile"], { held: true });
const lanes = await Promise.all([
  inTurn(() => runBrowserTests(compiled)),
  inTurn(
    async () => {
      const [lint, types] = await Promise.all([
        printed(check("lint and format", ["bun", "scripts/biome.ts", "ci", "--error-on-warnings", "."])),
        printed(check("typecheck", [bin("tsc"), "--noEmit"])),
      ]);
      return { passed: 0, failed: lint.failed + types.failed, exitCode: 0 };
    },
    () =>
      run(["bun", "test", "--timeout", "20000", ...args(testFiles.filter((f) => !processTests.includes(f)))], {
        held: true,
      }),
  ),
  inTurn(runPostgresTests, runProcessTests),
]);
const outcomes = lanes.flat();

const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
const broken = outcomes.some((o) => o.exitCode !== 0) && failed === 0 ? 1 : 0;
console.log(`${passed} passed, ${failed + broken} failed`);
process.exit(failed + broken > 0 ? 1 : 0);
