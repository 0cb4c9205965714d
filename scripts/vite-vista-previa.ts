/**
 * Vite plugin behind the staff preview's problem list: the virtual module `virtual:problemas-del-flujo` exports
 * (default) the flow checker's problems (`FlowProblem[]`, tools/check/project.ts › checkProduct over the product's
 * files as `npm run flow:check` reads them: flow, step and ui schemas, wire schemas, texts, migrations) computed in
 * Node — at build time for a production build, and anew under `npm run dev` whenever one of those JSON files changes,
 * with a full reload of the page (the checker compiles JSON Schemas with Ajv, which the site's CSP would refuse in
 * the browser). Only the preview's chunk imports it.
 */
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { checkProduct } from '../tools/check/project.ts';
import { loadProduct } from '../server/src/producto.ts';

const ID = 'virtual:problemas-del-flujo';
const RESOLVED = '\0' + ID;

/** @param root the product's root folder (flow/, schemas/, src/i18n/es.json) */
export function problemasDelFlujo(root: string): Plugin {
  const watched = (file: string) =>
    file.startsWith(join(root, 'flow') + '/') || file.startsWith(join(root, 'schemas') + '/') || file === join(root, 'src/i18n/es.json');
  return {
    name: 'problemas-del-flujo',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      let problems;
      try {
        problems = checkProduct(loadProduct(root)).problems;
      } catch (error) {
        problems = [{ file: '', pointer: '', message: (error as Error).message }];
      }
      return `export default ${JSON.stringify(problems)};`;
    },
    configureServer(server) {
      server.watcher.add([join(root, 'flow'), join(root, 'schemas')]);
      server.watcher.on('change', (file) => {
        if (!watched(file)) return;
        const mod = server.moduleGraph.getModuleById(RESOLVED);
        if (mod) server.moduleGraph.invalidateModule(mod);
        server.ws.send({ type: 'full-reload' });
      });
    },
  };
}
