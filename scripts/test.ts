/**
 * `npm test`: the unit/API suite on SQLite, beside it the engine-dependent files again on PostgreSQL and the crash
 * and cluster tests, then the browser end-to-end suite (Debian's /usr/bin/chromium), and one closing
 * line `N passed, N failed` counted from the runners' own summaries.
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

/** Lint and format (Biome) and types (tsc) are checked first; each that fails counts as one failure. */
async function check(name: string, cmd: string[]): Promise<Outcome> {
  console.log(`$ ${cmd.join(" ")}`);
  const proc = Bun.spawn(cmd, { cwd: root, stdout: "inherit", stderr: "inherit", env: process.env });
  const exitCode = await proc.exited;
  if (exitCode !== 0) console.error(`${name} failed`);
  return { passed: 0, failed: exitCode === 0 ? 0 : 1, exitCode: 0 };
}

const bin = (name: string) => join(root, "node_modules", ".bin", name);
const testFiles = [...new Bun.Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: root })].sort();
const textOf = (file: string) => readFileSync(join(root, file), "utf8");
const args = (files: string[]) => files.map((f) => `./${f}`);
// The crash and cluster tests (`// @group processes`, tests/engine-marks.ts) run apart, in a process of their own.
const processTests = testFiles.filter((f) => runsProcesses(textOf(f)));
const outcomes: Outcome[] = [
  await check("lint and format", ["bun", "scripts/biome.ts", "ci", "--error-on-warnings", "."]),
  await check("typecheck", [bin("tsc"), "--noEmit"]),
];
// The SQLite run keeps one core busy while the PostgreSQL run below mostly waits on its server: they run side by side.
const sqliteRun = run(["bun", "test", ...args(testFiles.filter((f) => !processTests.includes(f)))], { held: true });
/**
 * The files whose behaviour depends on the engine (`// @engine each`, see tests/engine-marks.ts) again on
 * PostgreSQL, a throwaway cluster (tests/pg-harness.ts).
 */
const hasPostgres = Boolean(Bun.which("initdb") && Bun.which("pg_ctl"));
const onBothEngines = (files: string[]) => files.filter((f) => engineMark(textOf(f)) === "each");
const onPostgres = { env: { TEST_ENGINE: "postgres" } };

/**
 * The crash and cluster tests mostly wait on their servers, so they run beside the PostgreSQL run below, on
 * SQLite and then (those marked each) on PostgreSQL, with the time a restarted server needs.
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
const processRun = runProcessTests();

if (hasPostgres) {
  const files = onBothEngines(testFiles.filter((f) => !processTests.includes(f)));
  // Each query is a round trip to a server here, which a loaded machine makes slower still: a test that waits
  // for a reconnect or a Baileys session gets the process tests' time.
  outcomes.push(await run(["bun", "test", "--timeout", "60000", ...args(files)], onPostgres));
} else console.log("PostgreSQL run skipped: no initdb and pg_ctl on PATH (apt-get install postgresql)");
const sqlite = await sqliteRun;
console.log(sqlite.held);
outcomes.push(sqlite);
const processed = await processRun;
console.log(processed.held);
outcomes.push(processed);

const e2eFiles = [...new Bun.Glob("tests/e2e/*.e2e.ts").scanSync({ cwd: root })].sort();
if (e2eFiles.length > 0) {
  if (existsSync(CHROMIUM)) {
    const build = Bun.spawnSync(["bun", "scripts/build.ts"], { cwd: root, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) outcomes.push({ passed: 0, failed: 1, exitCode: build.exitCode ?? 1 });
    else outcomes.push(await run(["bun", "test", "--timeout", "60000", ...e2eFiles.map((f) => `./${f}`)]));
  } else if (process.env.CI) {
    console.error(`browser tests need ${CHROMIUM} (apt-get install -y chromium)`);
    outcomes.push({ passed: 0, failed: e2eFiles.length, exitCode: 1 });
  } else {
    console.warn(
      `skipping ${e2eFiles.length} browser test file(s): ${CHROMIUM} is not installed (apt-get install -y chromium)`,
    );
  }
}

const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
const broken = outcomes.some((o) => o.exitCode !== 0) && failed === 0 ? 1 : 0;
console.log(`${passed} passed, ${failed + broken} failed`);
process.exit(failed + broken > 0 ? 1 : 0);
