-- 020: the shared counters (request rate limits, the hourly quote quota) are written without the write-ahead log.
-- Every /api request on PostgreSQL counts in `limites` in a transaction of its own; logged, each of those commits waited
-- for a WAL flush (measured on this machine: p50 0.33 ms, p99 1.6 ms per counter round trip; unlogged 0.18 and 0.72).
-- What is lost: after a crash of the database server (not of an API instance) PostgreSQL empties an unlogged table,
-- and a standby does not have it, so the counters start again from zero then. A limit is a guard against abuse
-- within a minute or an hour, not a record; nothing else reads these rows.
ALTER TABLE limites SET UNLOGGED;
