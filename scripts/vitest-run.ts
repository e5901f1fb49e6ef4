import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// vitest's package exports do not list its bin; it sits at a fixed place in the package.
const vitestBin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** Runs vitest in a child process (its own exit code, its own output) and resolves with the code. */
export function runVitest(args: string[], env: NodeJS.ProcessEnv = process.env, options: { quiet?: boolean } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vitestBin, 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (sink: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) sink.write(chunk);
    };
    child.stdout.on('data', collect(process.stdout));
    child.stderr.on('data', collect(process.stderr));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
