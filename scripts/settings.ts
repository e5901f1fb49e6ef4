import { ConfigError, readSettings, type Settings } from '../support/config.js';

/**
 * The settings for a command, or undefined after printing the one configuration message (a
 * wrong or missing variable stops a command before it does anything, with the variable and the fix).
 */
export function settingsFor(command: string): Settings | undefined {
  try {
    return readSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${command}: configuration error: ${error.message}`);
    return undefined;
  }
}
