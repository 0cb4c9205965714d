-- 013: the staff's step funnel. One row per step shown or submitted in a visitor's journey, sent in
-- batches by the web app (POST /api/embudo/eventos). No personal data: a random journey id made by the browser
-- (not the session, not the quote), the step id, the kind, the browser's time and the flow version.
-- Read by `npm run report:funnel`; deleted after RETENCION_LOGS_DIAS like the business logs (maintenance/retention.ts).
CREATE TABLE embudo_eventos (
  id bigserial PRIMARY KEY,
  recibido_en timestamptz NOT NULL DEFAULT now(),
  ocurrido_en timestamptz NOT NULL,
  recorrido uuid NOT NULL,
  paso text NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('mostrado', 'enviado')),
  version_flujo integer NOT NULL
);
CREATE INDEX embudo_eventos_recibido ON embudo_eventos (recibido_en);
