-- 010: production hardening. Runs on databases that already hold data: nothing here fails on existing rows.

-- Quotes belong to the visitor's session: SHA-256 (hex) of the httpOnly cookie `sesion`. Rows from before this
-- migration have none and are reachable by nobody (they expire by retention).
ALTER TABLE cotizaciones ADD COLUMN sesion text;
CREATE INDEX cotizaciones_creada ON cotizaciones (creada_en);

-- Applications get a public, non-guessable id (UUID v4); numero_solicitud stays the internal key.
ALTER TABLE solicitudes ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX solicitudes_id ON solicitudes (id);

-- One application per purchase (quote + payment method) and one policy per quote. Duplicates made before this
-- migration are kept (they are real rows) but flagged `legado` and left out of both unique indexes.
ALTER TABLE solicitudes ADD COLUMN legado boolean NOT NULL DEFAULT false;
UPDATE solicitudes s SET legado = true
  WHERE EXISTS (SELECT 1 FROM solicitudes o
                WHERE o.ref_id = s.ref_id AND o.medio_pago_id = s.medio_pago_id AND o.numero_solicitud < s.numero_solicitud);
CREATE UNIQUE INDEX solicitudes_una_por_compra ON solicitudes (ref_id, medio_pago_id) WHERE NOT legado;

ALTER TABLE polizas ADD COLUMN legado boolean NOT NULL DEFAULT false;
ALTER TABLE polizas ADD COLUMN vigencia_movida boolean NOT NULL DEFAULT false;
UPDATE polizas p SET legado = true
  WHERE EXISTS (SELECT 1 FROM polizas o
                WHERE o.ref_id = p.ref_id AND (o.emitida_en, o.num_secu_pol) < (p.emitida_en, p.num_secu_pol));
CREATE UNIQUE INDEX polizas_una_por_cotizacion ON polizas (ref_id) WHERE NOT legado;

-- Emission is a durable job on the application row: due at `proximo_intento`, claimed by one worker
-- (`tomada_por`) until `tomada_hasta` (lease), retried with backoff (`intentos`, `ultimo_error`).
ALTER TABLE solicitudes ADD COLUMN proximo_intento timestamptz;
ALTER TABLE solicitudes ADD COLUMN intentos integer NOT NULL DEFAULT 0;
ALTER TABLE solicitudes ADD COLUMN tomada_por text;
ALTER TABLE solicitudes ADD COLUMN tomada_hasta timestamptz;
ALTER TABLE solicitudes ADD COLUMN ultimo_error text;
UPDATE solicitudes SET proximo_intento = now() WHERE estado = 'PENDIENTE' AND emision_pedida;
CREATE INDEX solicitudes_cola ON solicitudes (proximo_intento) WHERE estado = 'PENDIENTE' AND emision_pedida;

-- Idempotency-Key answers, per session and key (estado_http 0 = request in progress).
CREATE TABLE idempotencia (
  sesion text NOT NULL,
  clave text NOT NULL,
  ruta text NOT NULL,
  huella text NOT NULL,
  estado_http integer NOT NULL DEFAULT 0,
  respuesta text,
  creada_en timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sesion, clave)
);
CREATE INDEX idempotencia_creada ON idempotencia (creada_en);

-- Counters shared by every instance: request rate limits and the hourly quote quota (fixed window from the first hit).
CREATE TABLE limites (
  clave text PRIMARY KEY,
  n integer NOT NULL,
  vence_en timestamptz NOT NULL
);

CREATE INDEX logs_creado ON logs (creado_en);
