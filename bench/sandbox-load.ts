/**
 * Inbound traffic for a server process: a sandbox connection paired over the API, then messages posted to
 * the sandbox's inbound route by concurrent senders spread over many phones, as the WhatsApp side would.
 */
export interface Load {
  base: string;
  auth: { authorization: string };
  connectionId: number;
  /** A fresh bearer header: a run longer than the access token's life logs in again. */
  relogin?: () => Promise<{ authorization: string }>;
}

/** Creates a sandbox connection through the API and scans its QR; resolves once it is CONNECTED. */
export async function pairSandbox(
  base: string,
  auth: { authorization: string },
  relogin?: () => Promise<{ authorization: string }>,
): Promise<Load> {
  const json = { ...auth, "content-type": "application/json" };
  const created = await fetch(`${base}/api/whatsapp`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: `Bench ${Date.now()}`, provider: "sandbox" }),
  });
  if (!created.ok) throw new Error(`create connection: HTTP ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: number };
  const status = async () =>
    ((await (await fetch(`${base}/api/whatsapp/${id}`, { headers: auth })).json()) as { status: string }).status;
  for (let i = 0; (await status()) !== "qrcode"; i++) {
    if (i > 1000) throw new Error("the sandbox connection never showed a QR");
    await Bun.sleep(5);
  }
  const scan = await fetch(`${base}/api/sandbox/${id}/scan`, { method: "POST", headers: auth });
  if (!scan.ok) throw new Error(`scan: HTTP ${scan.status}`);
  for (let i = 0; (await status()) !== "CONNECTED"; i++) {
    if (i > 1000) throw new Error("the sandbox connection never connected");
    await Bun.sleep(5);
  }
  return { base, auth, connectionId: id, relogin };
}

/**
 * Posts `count` inbound messages, `senders` at a time, from `phones` distinct numbers (numbered from
 * `offset`), optionally no faster than `perSecond`; returns the messages per second achieved.
 */
export async function sendInbound(
  load: Load,
  opts: {
    count: number;
    senders?: number;
    phones?: number;
    offset?: number;
    perSecond?: number;
    /** Where the phone numbers start (senders of two loads at once can so be kept apart). */
    firstPhone?: number;
  },
): Promise<number> {
  const senders = opts.senders ?? 32;
  const phones = opts.phones ?? 2000;
  const offset = opts.offset ?? 0;
  const firstPhone = 800000000 + (opts.firstPhone ?? 0);
  const url = `${load.base}/api/sandbox/${load.connectionId}/inbound`;
  let headers = { ...load.auth, "content-type": "application/json" };
  let renewing: Promise<void> | undefined;
  const renew = (used: typeof headers) => {
    if (headers !== used) return Promise.resolve();
    renewing ??= load.relogin!().then((auth) => {
      headers = { ...auth, "content-type": "application/json" };
      renewing = undefined;
    });
    return renewing;
  };
  const started = performance.now();
  let next = 0;
  async function sender() {
    for (;;) {
      const i = next++;
      if (i >= opts.count) return;
      if (opts.perSecond) {
        const due = started + (i / opts.perSecond) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await Bun.sleep(wait);
      }
      const n = offset + i;
      const body = JSON.stringify({ from: `5521${String(firstPhone + (n % phones))}`, body: `bench message ${n}` });
      let used = headers;
      let res = await fetch(url, { method: "POST", headers: used, body });
      await res.arrayBuffer();
      if ((res.status === 401 || res.status === 403) && load.relogin) {
        await renew(used);
        used = headers;
        res = await fetch(url, { method: "POST", headers: used, body });
        await res.arrayBuffer();
      }
      if (!res.ok) throw new Error(`inbound: HTTP ${res.status}`);
    }
  }
  await Promise.all(Array.from({ length: senders }, sender));
  return opts.count / ((performance.now() - started) / 1000);
}
