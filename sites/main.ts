/**
 * `npm run sites`: starts every demo site and prints its URL; stops cleanly on SIGINT / SIGTERM.
 * Ports: shop 4100, clinic 4101, or STEWARD_SITES_PORT_BASE (+0, +1).
 */
import { startDemoSites } from './server.ts';

async function main(): Promise<void> {
  const running = await startDemoSites();
  const width = Math.max(...Object.keys(running.urls).map((n) => n.length));
  console.log('Steward demo sites:');
  for (const [name, url] of Object.entries(running.urls)) {
    const title = running.sites[name as keyof typeof running.sites].title;
    console.log(`  ${name.padEnd(width)}  ${url}  ${title}`);
  }
  console.log('Test controls: GET /__demo/state, POST /__demo/reset on each site. Ctrl-C to stop.');

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping demo sites…`);
    const force = setTimeout(() => process.exit(1), 5_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
