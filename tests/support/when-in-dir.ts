/**
 * Waiting on a folder's change events (fs.watch) rather than on a timer: what the e2e tests do when another process
 * writes the thing they wait for — a mail the e2e server's SMTP server renamed into place (tests/e2e/correo.ts), an
 * edited tree another worker renamed into place (tests/support/edited-tree.ts).
 */
import { watch } from 'node:fs';

/**
 * Resolves with the first result of `check()` that is neither `undefined` nor `false`. `check` runs at once (for what
 * happened before the watch started) and again each time an entry of `dir` is created, renamed or removed; runs never
 * overlap — events during a run make one more run after it, which sees everything they announced.
 * @param dir an existing folder
 * @param check looks at the folder (sync or async); its error ends the wait with that error
 * @param opts.timeoutMs a ceiling sized for a loaded machine; none when omitted (the calling test's timeout is)
 * @param opts.timeoutMessage the error's message at the ceiling
 * @throws Error `timeoutMessage` at the ceiling, the watcher's error, or `check`'s
 */
export async function whenInDir<T>(
  dir: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  opts: { timeoutMs?: number; timeoutMessage?: string } = {},
): Promise<T> {
  const watcher = watch(dir);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      let running = false;
      let again = false;
      let done = false;
      const look = async (): Promise<void> => {
        if (running) {
          again = true;
          return;
        }
        running = true;
        try {
          do {
            again = false;
            const found = await check();
            if (found !== undefined && found !== false) {
              done = true;
              resolve(found);
            }
          } while (again && !done);
        } catch (err) {
          done = true;
          reject(err);
        } finally {
          running = false;
        }
      };
      watcher.on('change', () => void (done || look()));
      watcher.on('error', reject);
      if (opts.timeoutMs !== undefined)
        timer = setTimeout(
          () => reject(new Error(opts.timeoutMessage ?? `${dir}: lo esperado no llegó en ${opts.timeoutMs! / 1000} s`)),
          opts.timeoutMs,
        );
      void look(); // what happened before the watch started
    });
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}
