-- 022: a quote's `planes` (its priced amounts, ~4 KB) and `datos` (the answers as sent) are written once per quote
-- and read back whole; no query looks inside them. `jsonb` parsed each into PostgreSQL's binary form on every quote's
-- write (in PGlite's WebAssembly ~0.05 ms of the 0.29–0.38 ms the quote's row cost); `json` only checks the text.
-- They stay JSON to PostgreSQL (json_* functions read them) and every reader gets the same objects back.
-- `plan_elegido` and `coberturas_opcionales` (the choice, written on another call) stay jsonb.
ALTER TABLE cotizaciones ALTER COLUMN planes TYPE json USING planes::json, ALTER COLUMN datos TYPE json USING datos::json;
