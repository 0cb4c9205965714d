-- 021: the (ip, creada_en) index of 001 served the hourly quote limit while it counted a client's quotes of the last
-- hour in this table; the limit counts in `limites` since (plugins/limits.ts, cotizaciones.ts › insertConCupos), and no
-- query reads quotes by IP any more, so every quote's write paid an index entry that nothing used. The quotes keep
-- their IP (the record), and `cotizaciones_creada` (010) stays: the retention purge reads it.
DROP INDEX IF EXISTS cotizaciones_ip_creada;
