/**
 * M6: the compiled binary's cold start, from exec to the first `/health` 200, on a data directory whose
 * database is already big (and already migrated: the first, untimed start also creates the admin).
 */
import type { Figure } from "./figure";
import { quantile } from "./figure";
import { serverCommand, startServer } from "./server-process";

export async function measureColdStart(opts: { dataDir: string; runs?: number; what: string }): Promise<Figure[]> {
  const runs = opts.runs ?? 9;
  const command = serverCommand("binary");
  await (await startServer(command, opts.dataDir)).stop();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await startServer(command, opts.dataDir);
    times.push(server.readyMs);
    await server.stop();
  }
  const median = quantile(times, 0.5);
  return [
    {
      id: "M6",
      what: `binary cold start to first /health 200, ${opts.what} (median of ${runs})`,
      value: median,
      unit: "ms",
      target: "≤ 200",
      met: median <= 200,
    },
  ];
}
