-- 018: the funnel's synthetic journeys and branches. `sintetico`: the batch came from a replay, the
-- staff preview, the recorder or a test (EventosBody.sintetico); the report leaves those journeys out by default.
-- `rama`: on an 'enviado' of a step named in flow.json › funnel.splitBy, the chosen value (e.g. TC or CBU).
ALTER TABLE embudo_eventos ADD COLUMN sintetico boolean NOT NULL DEFAULT false;
ALTER TABLE embudo_eventos ADD COLUMN rama text;
