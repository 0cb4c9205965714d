import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, MENSAJE_ERROR_RED, MENSAJE_ERROR_SERVIDOR, POST_RETRY_DELAYS_MS, REQUEST_TIMEOUT_MS } from './client';

type Call = { url: string; method: string; headers: Headers; body: unknown; credentials?: RequestCredentials; cache?: RequestCache };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake fetch that records each call and answers with `reply(call, index)`. */
function fakeFetch(reply: (call: Call, index: number) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
      cache: init.cache,
    };
    calls.push(call);
    return reply(call, calls.length - 1);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

/** Answers `/set-csrf` with a numbered token and every other request with `other`. */
const withCsrf = (other: (call: Call) => Response | Promise<Response>) => {
  let issued = 0;
  return (call: Call) => (call.url.endsWith('/set-csrf') ? json(200, { csrfToken: `tok-${++issued}` }) : other(call));
};

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => vi.useRealTimers());

describe('createApiClient: requests', () => {
  it('GETs JSON under /api with cookies and a query string without undefined values', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, [{ id: '06434010', nombre: 'Lanús' }]));
    const api = createApiClient({ fetch });
    const result = await api.get('/listas/localidades', { provincia: '06', q: 'lan', limit: 20, departamento: undefined });
    expect(result).toEqual([{ id: '06434010', nombre: 'Lanús' }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/listas/localidades?provincia=06&q=lan&limit=20', method: 'GET', credentials: 'include' });
    expect(calls[0].headers.get('accept')).toBe('application/json');
  });

  it('fetches a CSRF token before each POST and sends it as x-xsrf-token (SPEC §7)', async () => {
    const { fetch, calls } = fakeFetch(withCsrf(() => json(200, { valido: true })));
    const api = createApiClient({ fetch, baseUrl: 'https://api.example.com/api' });

    await expect(api.post('/pagos/es-cbu-valido', { numberCBU: '2850590940090418135201' })).resolves.toEqual({ valido: true });
    await api.post('/cotizacion/validar-dni', { typeDoc: 'DNI', numberDoc: '30123456' });

    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET https://api.example.com/api/set-csrf',
      'POST https://api.example.com/api/pagos/es-cbu-valido',
      'GET https://api.example.com/api/set-csrf',
      'POST https://api.example.com/api/cotizacion/validar-dni',
    ]);
    expect(calls[0]).toMatchObject({ credentials: 'include', cache: 'no-store' });
    expect(calls[1].headers.get('x-xsrf-token')).toBe('tok-1');
    expect(calls[3].headers.get('x-xsrf-token')).toBe('tok-2');
    expect(calls[1]).toMatchObject({ credentials: 'include', body: { numberCBU: '2850590940090418135201' } });
    expect(calls[1].headers.get('content-type')).toMatch(/^application\/json/);
    expect(calls[3].body).toEqual({ typeDoc: 'DNI', numberDoc: '30123456' });
  });

  it('does not send the POST when the CSRF call fails or returns no token', async () => {
    const noToken = fakeFetch(() => json(200, {}));
    const e1 = await rejection(createApiClient({ fetch: noToken.fetch }).post('/emision/solicitar', {}));
    expect(e1).toMatchObject({ code: 'ERROR_SERVIDOR', message: MENSAJE_ERROR_SERVIDOR });
    expect(noToken.calls).toHaveLength(1);

    const down = fakeFetch(() =>
      json(429, { status: 429, code: 'DEMASIADAS_SOLICITUDES', message: 'Hiciste muchos intentos. Esperá un minuto.' }),
    );
    const e2 = await rejection(createApiClient({ fetch: down.fetch }).post('/emision/solicitar', {}));
    expect(e2).toMatchObject({ status: 429, code: 'DEMASIADAS_SOLICITUDES', message: 'Hiciste muchos intentos. Esperá un minuto.' });
    expect(down.calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('resolves undefined for an empty body (e.g. 204)', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 204 }));
    await expect(createApiClient({ fetch }).get('/algo')).resolves.toBeUndefined();
  });
});

describe('createApiClient: errors', () => {
  it('passes the server error shape through, with its field errors', async () => {
    const body = {
      status: 400,
      code: 'VALIDACION',
      message: 'Revisá los datos ingresados.',
      errors: [{ field: '/numberDoc', message: 'Ingresá un DNI válido.' }],
    };
    const { fetch } = fakeFetch(withCsrf(() => json(400, body)));
    const error = await rejection(createApiClient({ fetch }).post('/cotizacion/validar-dni', { numberDoc: '1' }));
    expect(error).toMatchObject(body);
    expect(error.message).toBe('Revisá los datos ingresados.');
  });

  it('maps a 403 CSRF rejection', async () => {
    const body = { status: 403, code: 'CSRF_INVALIDO', message: 'Tu sesión de seguridad venció. Volvé a intentar.' };
    const { fetch } = fakeFetch(withCsrf(() => json(403, body)));
    const error = await rejection(createApiClient({ fetch }).post('/cotizacion/cotizar', {}));
    expect(error).toMatchObject({ ...body, errors: [] });
  });

  it('maps a non-JSON error reply to ERROR_SERVIDOR with its status', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const error = await rejection(createApiClient({ fetch }).get('/chat/habilitar'));
    expect(error).toMatchObject({ status: 502, code: 'ERROR_SERVIDOR', message: MENSAJE_ERROR_SERVIDOR, errors: [] });
  });

  it('maps a success reply that is not JSON to ERROR_SERVIDOR', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>portal cautivo</html>', { status: 200 }));
    const error = await rejection(createApiClient({ fetch }).get('/chat/habilitar'));
    expect(error).toMatchObject({ status: 200, code: 'ERROR_SERVIDOR', message: MENSAJE_ERROR_SERVIDOR });
  });

  it('maps a network failure to RED with status 0', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await rejection(createApiClient({ fetch }).get('/listas/provincias'));
    expect(error).toMatchObject({ status: 0, code: 'RED', message: MENSAJE_ERROR_RED });
  });

  it('aborts after 15 s and maps the timeout to RED', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetch = vi.fn(
      (_url: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        }),
    ) as unknown as typeof globalThis.fetch;
    const pending = rejection(createApiClient({ fetch }).get('/cotizacion/validar-prefijo', { prefijo: 11 }));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ status: 0, code: 'RED', message: MENSAJE_ERROR_RED });
  });

  it('never writes the request body to the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    const { fetch } = fakeFetch(withCsrf(() => json(500, { status: 500, code: 'ERROR_INTERNO', message: 'Tuvimos un problema.' })));
    const error = await rejection(createApiClient({ fetch }).post('/pagos/validar-forma-cobro', { numberPaymentCard: '4509953566233704' }));
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(JSON.stringify(error)).not.toContain('4509953566233704');
    expect(error.message).not.toContain('4509953566233704');
    vi.restoreAllMocks();
  });
});

describe('createApiClient: idempotent POST (Idempotency-Key)', () => {
  const ok = { numeroSolicitud: '0b7c1f7e-8a3d-4a51-9a43-6f0b1b1c2d3e', premio: 183406.24 };

  it('sends the key, and retries a network failure with the SAME key and a fresh CSRF token', async () => {
    vi.useFakeTimers();
    let posts = 0;
    const { fetch, calls } = fakeFetch(withCsrf(() => (++posts === 1 ? Promise.reject(new TypeError('Failed to fetch')) : json(200, ok))));
    const pending = createApiClient({ fetch }).post('/emision/solicitar', { refId: 'r' }, { idempotencyKey: 'compra-1' });
    await vi.advanceTimersByTimeAsync(POST_RETRY_DELAYS_MS[0]);
    await expect(pending).resolves.toEqual(ok);
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(2);
    expect(sent.map((c) => c.headers.get('idempotency-key'))).toEqual(['compra-1', 'compra-1']);
    expect(sent.map((c) => c.headers.get('x-xsrf-token'))).toEqual(['tok-1', 'tok-2']);
    expect(sent[1].body).toEqual({ refId: 'r' });
  });

  it('retries a timed-out purchase and a 503, at most twice, then reports the failure', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = fakeFetch(
      withCsrf(() => json(503, { status: 503, code: 'SERVICIO_NO_DISPONIBLE', message: 'El servicio no está disponible.' })),
    );
    const pending = rejection(createApiClient({ fetch }).post('/emision/emitir-async', {}, { idempotencyKey: 'k' }));
    for (const ms of POST_RETRY_DELAYS_MS) await vi.advanceTimersByTimeAsync(ms);
    expect(await pending).toMatchObject({ status: 503, code: 'SERVICIO_NO_DISPONIBLE' });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1 + POST_RETRY_DELAYS_MS.length);
  });

  it('never retries a 4xx, nor a POST without a key', async () => {
    const conflict = fakeFetch(
      withCsrf(() => json(409, { status: 409, code: 'CONFLICTO', message: 'Esta cotización ya fue contratada.' })),
    );
    expect(
      await rejection(createApiClient({ fetch: conflict.fetch }).post('/emision/solicitar', {}, { idempotencyKey: 'k' })),
    ).toMatchObject({ status: 409 });
    expect(conflict.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    const offline = fakeFetch(withCsrf(() => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await rejection(createApiClient({ fetch: offline.fetch }).post('/cotizacion/cotizar', {}))).toMatchObject({ code: 'RED' });
    expect(offline.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(offline.calls[1].headers.get('idempotency-key')).toBeNull();
  });
});

describe('createApiClient: concurrent POSTs', () => {
  it('POSTs started together share one CSRF call (two would make two secrets, and the second cookie voids the first token)', async () => {
    const { fetch, calls } = fakeFetch(withCsrf(() => json(200, { ok: true })));
    const api = createApiClient({ fetch });
    await Promise.all([
      api.post('/embudo/eventos', { versionFlujo: 2, eventos: [] }),
      api.post('/cotizacion/validar-telefono', { areaCod: '341' }),
    ]);
    expect(calls.filter((c) => c.url.endsWith('/set-csrf'))).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.headers.get('x-xsrf-token'))).toEqual(['tok-1', 'tok-1']);
    await api.post('/cotizacion/validar-dni', {});
    expect(calls.filter((c) => c.url.endsWith('/set-csrf'))).toHaveLength(2); // a later POST asks again
  });
});
