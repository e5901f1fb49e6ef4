import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

describe('npm run simulator', () => {
  // A fresh clone's first start compiles the simulator under tsx: over 10 s while npm test's other files hold both
  // cores (26 Nov). The test waits for the line it prints once it listens, or for its exit, never a number of
  // seconds; the timeout only catches a start that hangs.
  it(
    'prints the base URL, credentials and provider, serves the API and stops on SIGTERM',
    { timeout: 600_000 },
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/main.ts'], {
        env: { ...process.env, SIMULATOR_PORT: '0', SIMULATOR_BACKGROUND_RECORDS: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let output = '';
        let errors = '';
        const listening = Promise.withResolvers<void>();
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Press Ctrl-C')) listening.resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        // What it printed to stderr is in the failure, should it end without listening.
        child.once('exit', (code) => listening.reject(new Error(`exited ${code} before listening:\n${errors}`)));
        await listening.promise;
        expect(output).toContain('contract-client:contract-secret, second-client:second-secret');
        expect(output).toContain('screening provider code: SANDBOX-AML');
        const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        expect((await fetch(`${baseUrl}/nothing`)).status).toBe(404);
        child.kill('SIGTERM');
        const [code] = await once(child, 'exit');
        expect(code).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  );

  it('refuses an invalid variable with a message naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/main.ts'], {
      env: { ...process.env, SIMULATOR_MUTANT: 'no-such-mutant' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(errors).toContain('SIMULATOR_MUTANT="no-such-mutant" is invalid');
  });
});
