-- 014: audit of the after-sale requests: one row per request to the botón de arrepentimiento, the botón
-- de baja and the tracking-code lookup, whatever its answer — when, from which client address (request.ip, i.e. what
-- the trusted proxies say) and user agent, the policy number or tracking code it named (never the DNI or e-mail
-- typed), the HTTP status and the tracking code it got. Written by routes/postventa (onSend), read by staff.
CREATE TABLE tramites_auditoria (
  id bigserial PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  tipo text NOT NULL CHECK (tipo IN ('ARREPENTIMIENTO', 'BAJA', 'CONSULTA')),
  num_secu_pol text,
  codigo text,
  estado_http integer NOT NULL,
  ip text,
  user_agent text
);
CREATE INDEX tramites_auditoria_poliza ON tramites_auditoria (num_secu_pol, creado_en);
CREATE INDEX tramites_auditoria_creado ON tramites_auditoria (creado_en);
