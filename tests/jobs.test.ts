// @engine each
import { first as firstRow } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs } from "../src/db/tables";
import { scheduleAutoClose } from "../src/modules/tickets/auto-close";
import { JobRunner } from "../src/jobs/runner";
import { activeKeys, claimDue, complete, enqueue } from "../src/jobs/store";
import { createLogger } from "../src/log";
import { makeTestApp, type TestContext } from "./helpers";

const runnerFor = (ctx: TestContext, opts: ConstructorParameters<typeof JobRunner>[1] = {}) =>
  new JobRunner(
    { db: ctx.db, clock: ctx.clock, log: createLogger("silent") },
    { leaseMs: 60_000, retryBaseMs: 1000, ...opts },
  );
const aMinuteLater = async (ctx: TestContext, runner: JobRunner) => {
  ctx.clock.advance(60_000);
  await runner.tick();
};
const row = async (ctx: TestContext, id: number) =>
  (await firstRow(ctx.db.select().from(jobs).where(eq(jobs.id, id))))!;

describe("jobs", () => {
  test("a job runs once when due, not before", async () => {
    const ctx = await makeTestApp();
    const runs: unknown[] = [];
    const runner = runnerFor(ctx).handle("greet", async (payload) => void runs.push(payload));
    const job = await runner.enqueue("greet", { to: "ana" }, { runAt: ctx.clock.now() + 5000 });
    await runner.tick();
    expect(runs).toEqual([]);
    ctx.clock.advance(5000);
    await runner.tick();
    await runner.tick();
    expect(runs).toEqual([{ to: "ana" }]);
    expect((await row(ctx, job.id)).status).toBe("done");
  });

  test("the keys of jobs still to run or running are known; done jobs and unknown keys are not", async () => {
    const ctx = await makeTestApp();
    const now = ctx.clock.now();
    await enqueue(ctx.db, "send", {}, now, { key: "a" });
    await enqueue(ctx.db, "send", {}, now, { key: "b" });
    await enqueue(ctx.db, "send", {}, now + 60_000, { key: "c" });
    const [first] = await claimDue(ctx.db, ["send"], now, 60_000, 1);
    await complete(ctx.db, first!, now);
    await claimDue(ctx.db, ["send"], now, 60_000, 1);
    expect(await activeKeys(ctx.db, ["a", "b", "c", "d"])).toEqual(new Set(["b", "c"]));
  });

  test("enqueueing with replace sets the key's job to run again at its new time; a run in progress then records nothing", async () => {
    const ctx = await makeTestApp();
    const now = ctx.clock.now();
    const job = await enqueue(ctx.db, "send", { v: 1 }, now, { key: "k", replace: true });
    const [running] = await claimDue(ctx.db, ["send"], now, 60_000, 1);
    const again = await enqueue(ctx.db, "send", { v: 2 }, now, { key: "k", replace: true, runAt: now + 5000 });
    expect(again).toMatchObject({ id: job.id, status: "pending", runAt: now + 5000, attempts: 0, payload: '{"v":2}' });
    await complete(ctx.db, running!, now);
    expect(await row(ctx, job.id)).toMatchObject({ status: "pending", runAt: now + 5000 });
  });

  test("a job leased by a runner that died is taken again once the lease expires, and run once", async () => {
    const ctx = await makeTestApp();
    const runs: number[] = [];
    const survivor = runnerFor(ctx).handle("work", async () => void runs.push(ctx.clock.now()));
    const job = await survivor.enqueue("work", {});
    // Another runner claims it and dies before finishing.
    expect((await claimDue(ctx.db, ["work"], ctx.clock.now(), 60_000, 10)).map((j) => j.id)).toEqual([job.id]);
    await survivor.tick();
    expect(runs).toEqual([]);
    ctx.clock.advance(60_000);
    await survivor.tick();
    await survivor.tick();
    expect(runs).toHaveLength(1);
    expect(await row(ctx, job.id)).toMatchObject({ status: "done", attempts: 2 });
  });

  test("a failing job is retried with growing waits, then marked failed with its last error", async () => {
    const ctx = await makeTestApp();
    let calls = 0;
    const runner = runnerFor(ctx).handle("flaky", async () => {
      calls++;
      throw new Error(`attempt ${calls} failed`);
    });
    const job = await runner.enqueue("flaky", {}, { maxAttempts: 3 });
    await runner.tick();
    expect(await row(ctx, job.id)).toMatchObject({
      status: "pending",
      runAt: ctx.clock.now() + 1000,
      lastError: "attempt 1 failed",
    });
    ctx.clock.advance(1000);
    await runner.tick();
    expect((await row(ctx, job.id)).runAt).toBe(ctx.clock.now() + 2000);
    ctx.clock.advance(2000);
    await runner.tick();
    expect(await row(ctx, job.id)).toMatchObject({ status: "failed", attempts: 3, lastError: "attempt 3 failed" });
    ctx.clock.advance(3_600_000);
    await runner.tick();
    expect(calls).toBe(3);
  });

  test("a recurring job is kept once per kind and runs every interval; switching it off removes it", async () => {
    const ctx = await makeTestApp();
    let runs = 0;
    const runner = runnerFor(ctx).handle("tick", async () => void runs++);
    const first = await runner.every("tick", 60_000);
    expect((await runner.every("tick", 60_000)).id).toBe(first.id);
    for (let minute = 0; minute < 3; minute++) {
      ctx.clock.advance(60_000);
      await runner.tick();
    }
    expect(runs).toBe(3);
    expect(await row(ctx, first.id)).toMatchObject({ status: "pending", runAt: ctx.clock.now() + 60_000 });
    await runner.never("tick");
    expect(await ctx.db.select().from(jobs)).toEqual([]);
  });

  test("a recurring job's turn with nothing to do, as its kind says, passes without a run: due again after its interval, a failed attempt forgotten", async () => {
    const ctx = await makeTestApp();
    let work = false;
    let runs = 0;
    const runner = runnerFor(ctx).handle(
      "sweep",
      async () => {
        runs++;
        if (runs === 1) throw new Error("first run failed");
      },
      { hasWork: async () => work },
    );
    const job = await runner.every("sweep", 60_000);
    work = true;
    await aMinuteLater(ctx, runner);
    expect(await row(ctx, job.id)).toMatchObject({ attempts: 1, lastError: "first run failed" });
    work = false;
    await aMinuteLater(ctx, runner);
    expect(runs).toBe(1);
    expect(await row(ctx, job.id)).toMatchObject({
      status: "pending",
      runAt: ctx.clock.now() + 60_000,
      attempts: 0,
      lastError: null,
    });
    work = true;
    await aMinuteLater(ctx, runner);
    expect(runs).toBe(2);
  });

  test("the runner tells its listeners when a tick finds a job to run, not when turns pass without work", async () => {
    const ctx = await makeTestApp();
    let told = 0;
    let work = false;
    const runner = runnerFor(ctx).handle("sweep", async () => {}, { hasWork: async () => work });
    runner.onWork(() => void told++);
    await runner.every("sweep", 60_000);
    await runner.tick();
    await aMinuteLater(ctx, runner);
    expect(told).toBe(0);
    work = true;
    await aMinuteLater(ctx, runner);
    expect(told).toBe(1);
  });

  test("a job runs when its kind's check of work fails, and a one-off job runs whatever the check says", async () => {
    const ctx = await makeTestApp();
    let runs = 0;
    let check = async () => false;
    const runner = runnerFor(ctx).handle("sweep", async () => void runs++, { hasWork: () => check() });
    await runner.enqueue("sweep", {});
    await runner.tick();
    expect(runs).toBe(1);
    check = async () => {
      throw new Error("no answer");
    };
    await runner.every("sweep", 60_000);
    await aMinuteLater(ctx, runner);
    expect(runs).toBe(2);
  });

  test("nodes starting together enqueue one keyed job between them", async () => {
    const ctx = await makeTestApp();
    const now = ctx.clock.now();
    const made = await Promise.all([1, 2, 3].map(() => enqueue(ctx.db, "tick", {}, now, { key: "tick" })));
    expect(new Set(made.map((job) => job.id)).size).toBe(1);
    expect(await ctx.db.select().from(jobs).where(eq(jobs.key, "tick"))).toHaveLength(1);
  });

  test("stop waits for the runs in progress and takes nothing after", async () => {
    const ctx = await makeTestApp();
    let release = () => {};
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const order: string[] = [];
    const runner = runnerFor(ctx).handle(
      "slow",
      () =>
        new Promise<void>((resolve) => {
          release = () => (order.push("ran"), resolve());
          started();
        }),
    );
    await runner.enqueue("slow", {});
    await runner.enqueue("slow", {}, { runAt: ctx.clock.now() + 10 });
    const ticking = runner.tick();
    // The tick claims its job asynchronously: stop once the run is in progress.
    await running;
    const stopping = runner.stop().then(() => order.push("stopped"));
    release();
    await Promise.all([ticking, stopping]);
    ctx.clock.advance(10);
    await runner.tick();
    expect(order).toEqual(["ran", "stopped"]);
  });

  test("ended one-off jobs are dropped a week after they ended, by a job once a day; recurring and pending ones stay", async () => {
    const ctx = await makeTestApp();
    const runner = runnerFor(ctx).handle("once", async () => {});
    await runner.enqueue("once", {});
    await runner.enqueue("once", {}, { runAt: ctx.clock.now() + 30 * 86_400_000 });
    await runner.tick();
    await runner.prune();
    for (let day = 0; day < 7; day++) {
      ctx.clock.advance(86_400_000);
      await runner.tick();
    }
    expect((await ctx.db.select().from(jobs).orderBy(jobs.id)).map((j) => [j.kind, j.status])).toEqual([
      ["once", "done"],
      ["once", "pending"],
      ["jobs.prune", "pending"],
    ]);
    ctx.clock.advance(86_400_000);
    await runner.tick();
    expect((await ctx.db.select().from(jobs).orderBy(jobs.id)).map((j) => [j.kind, j.status])).toEqual([
      ["once", "pending"],
      ["jobs.prune", "pending"],
    ]);
  });

  test("auto-close runs as a recurring job every minute while AUTO_CLOSE_HOURS is set", async () => {
    const ctx = await makeTestApp();
    const runner = runnerFor(ctx);
    await scheduleAutoClose(runner, ctx.deps, 2);
    expect((await ctx.db.select().from(jobs)).map((j) => [j.kind, j.everyMs])).toEqual([["auto-close", 60_000]]);
    await scheduleAutoClose(runner, ctx.deps, 0);
    expect(await ctx.db.select().from(jobs)).toEqual([]);
  });
});
