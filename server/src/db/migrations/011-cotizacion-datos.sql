-- 011: the quote input as JSON ("rating factors are data"). `datos` holds the visitor's answers exactly as
-- sent to cotizar (any field the tariff's rating dimensions name, e.g. tieneAlarma, without a migration per field);
-- the typed columns stay for the reports. barrio_cerrado is only asked for a CASA (propiedad.schema.json), so it may
-- now be empty. Rows from before this migration get their answers back from the typed columns.
ALTER TABLE cotizaciones ADD COLUMN datos jsonb;
UPDATE cotizaciones SET datos = jsonb_build_object(
  'tipoVivienda', tipo_vivienda, 'barrioCerrado', barrio_cerrado, 'titularidad', titularidad, 'usoVivienda', uso_vivienda,
  'metros', metros, 'codLocalidad', cod_localidad, 'idProvincia', id_provincia, 'email', email, 'areaCod', area_cod,
  'phoneNumber', phone_number, 'initPolicyDate', to_char(init_policy_date, 'YYYY-MM-DD'))
WHERE datos IS NULL;
ALTER TABLE cotizaciones ALTER COLUMN datos SET NOT NULL;
ALTER TABLE cotizaciones ALTER COLUMN barrio_cerrado DROP NOT NULL;
