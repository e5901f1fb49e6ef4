import { defineConfig } from 'vitest/config';

// Reports are written only by `npm run contract` (scripts/contract.ts sets CONTRACT_REPORTS), so
// the project's own tests never mix into the contract report.
const contractReports = process.env.CONTRACT_REPORTS === '1';

export default defineConfig({
  test: {
    reporters: contractReports
      ? [
          'default',
          ['allure-vitest/reporter', { resultsDir: 'reports/allure-results' }],
          ['junit', { outputFile: 'reports/junit.xml' }],
        ]
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['specs/**/*.spec.ts'],
          globalSetup: ['support/global-setup.ts'],
          // Spec files wait on the network, not the CPU: run more of them than there are cores.
          pool: 'threads',
          maxWorkers: 12,
          fileParallelism: true,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
