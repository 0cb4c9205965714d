-- 017: the anti-bot proof of work is single-use: the signature of every challenge whose solution
-- was accepted is kept until the challenge expires, on every instance alike, so a solution cannot be replayed.
CREATE TABLE antibot_usados (
  firma text PRIMARY KEY,
  vence_en timestamptz NOT NULL
);
CREATE INDEX antibot_usados_vence_en ON antibot_usados (vence_en);
