-- Outbox delivery that neither loses nor repeats.
-- version: fencing token, +1 at every claim; a holder's renewal, failure or hand-back applies only while its version
--   is the row's (a "sent" is always recorded: the message was sent).
-- encolado_en: when the message was (re)queued; its age against CORREO_VIDA_MAX_HORAS decides the dead letter (FALLIDO).
ALTER TABLE correos ADD COLUMN version integer NOT NULL DEFAULT 0;
ALTER TABLE correos ADD COLUMN encolado_en timestamptz NOT NULL DEFAULT now();
UPDATE correos SET encolado_en = creado_en;
CREATE INDEX correos_fallidos ON correos (creado_en) WHERE estado = 'FALLIDO';
