// @engine each
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { first as firstRow } from "../src/db/client";
import { jobLanes, jobs } from "../src/db/tables";
import { type JobOutcome, JobRunner, LANE_WINDOW_MS, type LaneRule } from "../src/jobs/runner";
import { createLogger } from "../src/log";
import { makeTestApp, type TestContext } from "./helpers";
import { waitFor } from "./wait-for";

const HOUR = 3600_000;

interface Lab {
  ctx: TestContext;
  /** The rule every lane has, as the test sets it. */
  rule: LaneRule;
  /** Job ids in the order their runs started. */
  started: number[];
  /** What the next run of a job reports (done by default). */
  outcomes: Map<number, JobOutcome>;
  runner: (opts?: { random?: () => number; here?: boolean; leaseMs?: number }) => JobRunner;
  add: (lane: string, n?: number) => Promise<number[]>;
}

async function lab(rule: LaneRule = { intervalMs: 0 }): Promise<Lab> {
  const ctx = await makeTestApp();
  const started: number[] = [];
  const outcomes = new Map<number, JobOutcome>();
  const it: Lab = {
    ctx,
    rule,
    started,
    outcomes,
    runner: ({ random, here = true, leaseMs = 60_000 } = {}) =>
      new JobRunner({ db: ctx.db, clock: ctx.clock, log: createLogger("silent") }, { leaseMs, random }).handle(
        "send",
        async (_payload, job) => {
          started.push(job.id);
          const outcome = outcomes.get(job.id);
          outcomes.delete(job.id);
          return outcome;
        },
        { lanes: { rule: async () => it.rule, here: async () => here } },
      ),
    add: async (lane, n = 1) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) ids.push((await enqueueIn(ctx, lane)).id);
      return ids;
    },
  };
  return it;
}

const enqueueIn = async (ctx: TestContext, lane: string) =>
  await new JobRunner({ db: ctx.db, clock: ctx.clock, log: createLogger("silent") }).enqueue("send", {}, { lane });

const jobRow = async (ctx: TestContext, id: number) =>
  (await firstRow(ctx.db.select().from(jobs).where(eq(jobs.id, id))))!;

/** A handler whose runs each wait until the test lets them end. */
function heldRuns() {
  const started: number[] = [];
  const releases: (() => void)[] = [];
  return {
    started,
    handler: async (_payload: unknown, job: { id: number }) => {
      started.push(job.id);
      await new Promise<void>((resolve) => releases.push(resolve));
    },
    releaseAll: () => {
      for (const release of releases.splice(0)) release();
    },
  };
}

describe("job lanes", () => {
  test("a lane runs one job at a time, oldest first, while other lanes run beside it", async () => {
    const { ctx } = await lab();
    const held = heldRuns();
    const runner = new JobRunner({ db: ctx.db, clock: ctx.clock, log: createLogger("silent") }).handle(
      "send",
      held.handler,
      { lanes: { rule: async () => ({ intervalMs: 0 }) } },
    );
    const a = [await enqueueIn(ctx, "a"), await enqueueIn(ctx, "a"), await enqueueIn(ctx, "a")].map((j) => j.id);
    const b = (await enqueueIn(ctx, "b")).id;
    const ticking = runner.tick();
    await waitFor(() => held.started.length === 2);
    await runner.tick();
    expect(held.started.sort()).toEqual([a[0]!, b].sort());
    held.releaseAll();
    await ticking;
    const next = runner.tick();
    await waitFor(() => held.started.length === 3);
    held.releaseAll();
    await next;
    expect(held.started.at(-1)).toBe(a[1]!);
  });

  test("a lane waits its interval between the starts of two runs, as its rule says when the next job is due", async () => {
    const it = await lab({ intervalMs: 10_000 });
    const runner = it.runner();
    const ids = await it.add("a", 4);
    await runner.tick();
    it.ctx.clock.advance(9_999);
    await runner.tick();
    expect(it.started).toEqual([ids[0]!]);
    // Shorter now: the wait in progress is over.
    it.rule = { intervalMs: 5_000 };
    await runner.tick();
    expect(it.started).toEqual(ids.slice(0, 2));
    // Longer now: the wait in progress lasts longer.
    it.rule = { intervalMs: 20_000 };
    it.ctx.clock.advance(10_000);
    await runner.tick();
    expect(it.started).toHaveLength(2);
    it.ctx.clock.advance(10_000);
    await runner.tick();
    expect(it.started).toEqual(ids.slice(0, 3));
  });

  test("with jitter, each wait is the interval plus the extra drawn at the run before, at most the interval again", async () => {
    const it = await lab({ intervalMs: 10_000, jitter: true });
    const draws = [0.5, 0.999, 0.999];
    const runner = it.runner({ random: () => draws.shift() ?? 0 });
    const ids = await it.add("a", 3);
    await runner.tick();
    it.ctx.clock.advance(14_999);
    await runner.tick();
    expect(it.started).toEqual([ids[0]!]);
    it.ctx.clock.advance(1);
    await runner.tick();
    expect(it.started).toEqual(ids.slice(0, 2));
    it.ctx.clock.advance(19_989);
    await runner.tick();
    expect(it.started).toHaveLength(2);
    it.ctx.clock.advance(1);
    await runner.tick();
    expect(it.started).toEqual(ids);
    // Without jitter in the rule, the extra drawn is not waited for.
    const last = (await it.add("a"))[0]!;
    it.rule = { intervalMs: 10_000 };
    it.ctx.clock.advance(10_000);
    await runner.tick();
    expect(it.started.at(-1)).toBe(last);
  });

  test("a lane's daily limit counts only the runs its handler counted, over the trailing 24 h; 0 pauses it", async () => {
    const it = await lab({ intervalMs: 1000, perDay: 2 });
    const runner = it.runner();
    const ids = await it.add("a", 5);
    for (const id of ids.slice(1)) it.outcomes.set(id, { counted: true });
    for (let i = 0; i < 5; i++) {
      await runner.tick();
      it.ctx.clock.advance(1000);
    }
    // The first run was not counted: the two counted ones use up the limit, until the first of them is a day old.
    expect(it.started).toEqual(ids.slice(0, 3));
    it.ctx.clock.advance(LANE_WINDOW_MS - 4000);
    await runner.tick();
    expect(it.started).toHaveLength(3);
    it.ctx.clock.advance(1);
    await runner.tick();
    expect(it.started).toEqual(ids.slice(0, 4));
    it.rule = { intervalMs: 1000, perDay: 0 };
    it.ctx.clock.advance(LANE_WINDOW_MS);
    await runner.tick();
    expect(it.started).toHaveLength(4);
  });

  test("a run that asks to wait keeps its place and its attempts, holds its lane without moving its wait, and goes on when woken", async () => {
    const it = await lab({ intervalMs: 10_000 });
    const runner = it.runner();
    const [done, waiting, after] = await it.add("a", 3);
    await runner.tick();
    it.ctx.clock.advance(10_000);
    it.outcomes.set(waiting!, { waitMs: HOUR });
    await runner.tick();
    expect(await jobRow(it.ctx, waiting!)).toMatchObject({ status: "pending", attempts: 0 });
    it.ctx.clock.advance(10_000);
    await runner.tick();
    expect(it.started).toEqual([done!, waiting!]);
    await runner.wake("a");
    await runner.tick();
    // The wait did not count as a run: the lane's interval still runs from the first one.
    expect(it.started).toEqual([done!, waiting!, waiting!]);
    it.ctx.clock.advance(10_000);
    await runner.tick();
    expect(it.started.at(-1)).toBe(after!);
  });

  test("a lane is taken only by a runner it runs on (`here`)", async () => {
    const it = await lab();
    const [id] = await it.add("a");
    await it.runner({ here: false }).tick();
    expect(it.started).toEqual([]);
    await it.runner().tick();
    expect(it.started).toEqual([id!]);
  });

  test("a run cut off by a crash holds its lane until its lease runs out, or until its lanes are released", async () => {
    const it = await lab();
    const [cut, next] = await it.add("a", 2);
    const held = heldRuns();
    const dying = new JobRunner(
      { db: it.ctx.db, clock: it.ctx.clock, log: createLogger("silent") },
      { leaseMs: 60_000 },
    ).handle("send", held.handler, { lanes: { rule: async () => it.rule } });
    void dying.tick();
    await waitFor(() => held.started.length === 1);
    const survivor = it.runner();
    await survivor.tick();
    expect(it.started).toEqual([]);
    it.ctx.clock.advance(60_000);
    await survivor.tick();
    expect(it.started).toEqual([cut!]);
    expect(await jobRow(it.ctx, cut!)).toMatchObject({ status: "done", attempts: 2 });

    void dying.tick();
    await waitFor(() => held.started.length === 2);
    await survivor.release();
    await survivor.tick();
    expect(it.started).toEqual([cut!, next!]);
  });

  test("two runners on one database never run one lane at once, nor both after one wait", async () => {
    const it = await lab();
    const held = heldRuns();
    const runners = [0, 1].map(() =>
      new JobRunner({ db: it.ctx.db, clock: it.ctx.clock, log: createLogger("silent") }).handle("send", held.handler, {
        lanes: { rule: async () => it.rule },
      }),
    );
    const ids = await it.add("a", 6);
    const round = async (waitMs: number) => {
      const before = held.started.length;
      let ended = 0;
      const ticks = runners.flatMap((r) => [r.tick(), r.tick()]).map((tick) => tick.finally(() => ended++));
      // Until each tick has ended or holds a run: one still looking at the lane once the run is let go would
      // rightly take the next job, and hold it with no one left to let it go.
      await waitFor(() => ended + held.started.length - before === ticks.length);
      await Promise.all(runners.map((r) => r.tick()));
      expect(held.started).toHaveLength(before + 1);
      held.releaseAll();
      await Promise.all(ticks);
      if (waitMs) {
        it.ctx.clock.advance(waitMs - 1);
        await Promise.all(runners.map((r) => r.tick()));
        expect(held.started).toHaveLength(before + 1);
        it.ctx.clock.advance(1);
      }
    };
    // No interval: still one run at a time.
    for (let i = 0; i < 3; i++) await round(0);
    it.rule = { intervalMs: 10_000 };
    it.ctx.clock.advance(10_000);
    for (let i = 0; i < 2; i++) await round(10_000);
    expect(held.started).toEqual(ids.slice(0, 5));
    expect((await it.ctx.db.select().from(jobs).orderBy(asc(jobs.id))).map((j) => j.status)).toEqual([
      ...Array(5).fill("done"),
      "pending",
    ]);
    expect(await firstRow(it.ctx.db.select().from(jobLanes))).toMatchObject({ lane: "a", busyUntil: null });
  });
});
