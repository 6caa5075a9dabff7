// @engine once
import { describe, expect, test } from "bun:test";
import { AppError } from "../src/errors";
import { HashPool } from "../src/modules/auth/hash-pool";
import { Passwords } from "../src/modules/auth/passwords";
import { call, createUser, makeTestApp } from "./helpers";

/** A task that runs until released. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, work: () => done };
}

describe("C1: password hashing is bounded", () => {
  test("runs at most `concurrency` hashes at once, then a short line in arrival order, and refuses the rest at once with 429", async () => {
    const pool = new HashPool(2, 2);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3].map(() => held());
    const runs = tasks.map((task, i) =>
      pool.run(async () => {
        started.push(i);
        await task.work();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    const refused = await pool.run(async () => 1).catch((error) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "ERR_TOO_MANY_ATTEMPTS", status: 429 });
    expect(refused.details.retryAfter).toBeGreaterThanOrEqual(1);
    tasks[1]!.release();
    await runs[1];
    expect(started).toEqual([0, 1, 2]);
    for (const task of tasks) task.release();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(pool.load()).toBe(0);
    expect(await pool.run(async () => "free again")).toBe("free again");
  });

  test("a failing hash frees its slot", async () => {
    const pool = new HashPool(1, 0);
    await expect(pool.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await pool.run(async () => "next")).toBe("next");
  });

  test("a login that finds every hashing slot and the line taken is refused at once with Retry-After, while /health and signed-in requests answer", async () => {
    const ctx = await makeTestApp();
    const user = await createUser(ctx);
    const signedIn = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    const passwords = new Passwords(ctx.deps.config.passwordHashing, 1);
    ctx.deps.passwords = passwords;
    const busy = held();
    const taken = [0, 1, 2, 3, 4].map(() => passwords.pool.run(busy.work));
    expect(passwords.pool.load()).toBe(5);

    const refused = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    expect(refused).toMatchObject({ status: 429, json: { error: "ERR_TOO_MANY_ATTEMPTS" } });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call(ctx.app, "GET", "/health")).status).toBe(200);
    expect((await call(ctx.app, "GET", "/api/users", { token: signedIn.json.token })).status).toBe(200);

    busy.release();
    await Promise.all(taken);
    const later = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    expect(later.status).toBe(200);
  });
});
