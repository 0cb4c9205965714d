-- 012: after the sale. Policy document, e-mail outbox, resumable quotes, withdrawal/cancellation
-- requests and the Ley 25.326 consent. Nothing here fails on existing rows.

-- The policy PDF is made once (first download or first e-mail) and kept: the same bytes every time.
-- State: VIGENTE; ANULADA (botón de arrepentimiento: void from the start); BAJA (botón de baja, from estado_desde).
ALTER TABLE polizas ADD COLUMN pdf bytea;
ALTER TABLE polizas ADD COLUMN estado text NOT NULL DEFAULT 'VIGENTE' CHECK (estado IN ('VIGENTE', 'ANULADA', 'BAJA'));
ALTER TABLE polizas ADD COLUMN estado_desde date;

-- E-mail outbox: every message is a durable job (the emission job pattern: due at proximo_intento, claimed with
-- FOR UPDATE SKIP LOCKED by one worker until tomada_hasta, retried with bounded backoff). Attachments are named by
-- reference ({ "tipo": "poliza", "numSecuPol" } | { "tipo": "cotizacion", "refId" }) and rendered at send time.
-- estado: PENDIENTE → ENVIADO (SMTP accepted it) | LOCAL (no SMTP configured: kept here, see /api/dev/correo)
--         | FALLIDO (attempts exhausted).
CREATE TABLE correos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creado_en timestamptz NOT NULL DEFAULT now(),
  tipo text NOT NULL,
  para text NOT NULL,
  asunto text NOT NULL,
  texto text NOT NULL,
  html text NOT NULL,
  adjuntos jsonb NOT NULL DEFAULT '[]',
  estado text NOT NULL DEFAULT 'PENDIENTE' CHECK (estado IN ('PENDIENTE', 'ENVIADO', 'LOCAL', 'FALLIDO')),
  proximo_intento timestamptz NOT NULL DEFAULT now(),
  intentos integer NOT NULL DEFAULT 0,
  tomada_por text,
  tomada_hasta timestamptz,
  ultimo_error text,
  enviado_en timestamptz
);
CREATE INDEX correos_cola ON correos (proximo_intento) WHERE estado = 'PENDIENTE';
CREATE INDEX correos_creado ON correos (creado_en);

-- A quote the visitor asked to get by e-mail: what they had answered (flow version included) so a signed link
-- (its id inside) resumes it on any device. Expires with the link.
CREATE TABLE cotizaciones_enviadas (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creada_en timestamptz NOT NULL DEFAULT now(),
  vence_en timestamptz NOT NULL,
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id) ON DELETE CASCADE,
  respuestas jsonb NOT NULL,
  version_flujo integer NOT NULL
);

-- Botón de arrepentimiento / botón de baja: one request per policy and kind, answered with a tracking code.
CREATE TABLE tramites (
  codigo text PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  tipo text NOT NULL CHECK (tipo IN ('ARREPENTIMIENTO', 'BAJA')),
  num_secu_pol text NOT NULL REFERENCES polizas (num_secu_pol),
  fecha_efectiva date NOT NULL,
  UNIQUE (num_secu_pol, tipo)
);

-- Ley 25.326: express consent to the processing of personal data, with its time and the version of the text shown.
ALTER TABLE personas ADD COLUMN consentimiento_en timestamptz;
ALTER TABLE personas ADD COLUMN consentimiento_version text;
ALTER TABLE solicitudes ADD COLUMN consentimiento_en timestamptz;
ALTER TABLE solicitudes ADD COLUMN consentimiento_version text;
