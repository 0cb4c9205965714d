-- A quote's priced plans (`planes`, ~15 KB of JSON) are stored out of line WITHOUT compression: pglz took a third of
-- the CPU of the statement that stores a quote on the embedded database (~0.4 of 1.1 ms on PGlite, whose build has
-- no lz4), on the path every quote waits for before its answer. Same values; about 3× the bytes per quote (17 vs
-- 6 KB), which the retention job bounds. Rows stored before keep their compressed form (PostgreSQL reads both).
ALTER TABLE cotizaciones ALTER COLUMN planes SET STORAGE EXTERNAL;
