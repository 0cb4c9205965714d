/**
 * Test-only reverse proxy that publishes a server under a sub-path, as a front web server would
 * (nginx `location /hogar/ { proxy_pass http://app/; proxy_redirect / /hogar/; }`): `<prefix>/x` is forwarded to
 * `<target>/x` (method, headers and body as they come), a `Location` the server answers with `/x` goes back as
 * `<prefix>/x`, `<prefix>` alone is redirected to `<prefix>/`, and anything outside the prefix answers 404 — so a page
 * or an API call that leaves the sub-path fails instead of reaching the app. Nothing in the bodies is rewritten: the
 * app must have been built for the sub-path (`BASE_PATH=/hogar/ npm run build`, docs/operations.md › Sub-path).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SubPathProxy {
  /** e.g. http://127.0.0.1:3533/hogar */
  url: string;
  /** The paths asked for outside the prefix (answered 404), in order. */
  outside: string[];
  /** Forward to another server from now on (the same sub-path URL). */
  retarget(target: string): void;
  /** Closes the proxy (and its open connections) and waits for it. */
  close(): Promise<void>;
}

/**
 * @param target the server's origin, e.g. http://127.0.0.1:3532
 * @param port the proxy's port on 127.0.0.1 (0: a free one the system picks, in `url`)
 * @param prefix the sub-path, e.g. `/hogar`
 */
export async function startSubPathProxy(target: string, port: number, prefix: string): Promise<SubPathProxy> {
  let to = new URL(target);
  const outside: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    if (path === prefix) {
      res.writeHead(301, { location: `${prefix}/${url.slice(path.length)}` }).end();
      return;
    }
    if (!path.startsWith(`${prefix}/`)) {
      outside.push(path);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`fuera de ${prefix}/: ${path}`);
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: url.slice(prefix.length), headers: { ...req.headers, host: to.host } },
      (reply) => {
        const headers = { ...reply.headers };
        if (typeof headers.location === 'string' && headers.location.startsWith('/') && !headers.location.startsWith('//'))
          headers.location = prefix + headers.location;
        res.writeHead(reply.statusCode ?? 502, headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`,
    outside,
    retarget: (t) => (to = new URL(t)),
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
