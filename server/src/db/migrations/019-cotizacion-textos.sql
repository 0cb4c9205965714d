-- 019: a quote's plans are stored without the tariff's texts (domain/rating/planes-guardados.ts). The texts of a
-- tariff's plans and coverages are stored once here, under the SHA-256 of their JSON (`huella`), and never changed
-- nor deleted (a few KB per tariff text edit); a quote names its texts in `textos_huella`. A quote stored before this
-- migration has `textos_huella` NULL and its plans whole in `planes` (both shapes are read).
CREATE TABLE cotizacion_textos (
  huella text PRIMARY KEY,
  textos jsonb NOT NULL,
  creados_en timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE cotizaciones ADD COLUMN textos_huella text;
