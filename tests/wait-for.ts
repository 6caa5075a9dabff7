/**
 * Waits until `check` answers something truthy, looking again every few milliseconds, for what happens in
 * another process or behind a real network (a server's restart, a socket's reconnect). The deadline only ends
 * a test that would hang: it is long enough for a machine busy with other work, so it never judges speed.
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await Bun.sleep(5);
  }
}
