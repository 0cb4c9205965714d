-- 016: contact details are asked where the flow says: a flow may ask them after the price, so a quote
-- may be stored without e-mail or phone. What cotizar requires is what its request schema says
-- (schemas/api/cotizacion.json#/$defs/CotizarBody); the columns follow.
ALTER TABLE cotizaciones ALTER COLUMN email DROP NOT NULL;
ALTER TABLE cotizaciones ALTER COLUMN area_cod DROP NOT NULL;
ALTER TABLE cotizaciones ALTER COLUMN phone_number DROP NOT NULL;
