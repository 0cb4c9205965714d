/**
 * Playwright's global teardown (playwright.config.ts): removes the edited trees this run built
 * (tests/support/edited-tree.ts › builtTree), a few hundred MB of copies and builds.
 */
import { rmSync } from 'node:fs';
import { treesDir } from './edited-tree.ts';

export default function teardown(): void {
  rmSync(treesDir(), { recursive: true, force: true });
}
