import { describe, expect, test } from "bun:test";
import { KeyedLanes } from "../src/shared/lanes";

/** A job that runs until released, noting when it starts. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release,
    job: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
  };
}

describe("KeyedLanes: the one per-key order of the message paths", () => {
  test("jobs of one key run one after another in arrival order; another key's job runs meanwhile", async () => {
    const lanes = new KeyedLanes<string>();
    const log: string[] = [];
    const [a1, a2, b1] = [gate(log, "a1"), gate(log, "a2"), gate(log, "b1")];
    const runs = [lanes.run("a", a1.job), lanes.run("a", a2.job), lanes.run("b", b1.job)];
    await Promise.resolve();
    expect(log).toEqual(["start a1", "start b1"]);
    a1.release();
    await runs[0];
    await Promise.resolve();
    expect(log).toEqual(["start a1", "start b1", "end a1", "start a2"]);
    a2.release();
    b1.release();
    expect(await Promise.all(runs)).toEqual(["a1", "a2", "b1"]);
  });

  test("a failed job does not stop the next one of its key, and idle() waits for every job started", async () => {
    const lanes = new KeyedLanes<string>();
    const failed = lanes.run("a", () => Promise.reject(new Error("boom")));
    const next = lanes.run("a", async () => "after");
    let idle = false;
    const waiting = lanes.idle().then(() => {
      idle = true;
    });
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe("after");
    await waiting;
    expect(idle).toBe(true);
  });

  test("settled(key) waits for the jobs of that key queued so far, not for later ones nor other keys", async () => {
    const lanes = new KeyedLanes<string>();
    const log: string[] = [];
    const [a1, a2, b1] = [gate(log, "a1"), gate(log, "a2"), gate(log, "b1")];
    void lanes.run("a", a1.job);
    void lanes.run("b", b1.job);
    const settled = lanes.settled("a").then(() => log.push("a settled"));
    void lanes.run("a", a2.job);
    a1.release();
    await settled;
    expect(log.slice(0, 4)).toEqual(["start a1", "start b1", "end a1", "a settled"]);
    expect(log).not.toContain("end a2");
    a2.release();
    b1.release();
    await lanes.idle();
  });
});
