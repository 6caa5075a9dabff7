/** Times `GET <base>/health` every 100 ms and prints each latency (ms) on its own line until stopped. */
export {};
const base = process.argv[2];
let stopped = false;
process.on("SIGTERM", () => {
  stopped = true;
});
while (!stopped) {
  const at = performance.now();
  await fetch(`${base}/health`).catch(() => undefined);
  console.log((performance.now() - at).toFixed(2));
  await Bun.sleep(100);
}
