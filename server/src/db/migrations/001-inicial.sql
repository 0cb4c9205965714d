-- Cotizador Hogar: initial schema. Money in ARS numeric(14,2); dates as date; instants timestamptz.
-- Payment numbers live ONLY in medios_pago.numero_cifrado (AES-256-GCM); everything else holds masked forms.

CREATE TABLE cotizaciones (
  ref_id uuid PRIMARY KEY,
  creada_en timestamptz NOT NULL DEFAULT now(),
  ip text,
  tarifa_version text NOT NULL,
  tipo_vivienda text NOT NULL,
  barrio_cerrado text NOT NULL,
  titularidad text NOT NULL,
  uso_vivienda text NOT NULL,
  metros integer NOT NULL,
  cod_localidad text NOT NULL,
  id_provincia text NOT NULL,
  zona text NOT NULL,
  email text NOT NULL,
  area_cod text NOT NULL,
  phone_number text NOT NULL,
  init_policy_date date NOT NULL,
  inspection boolean NOT NULL,
  planes jsonb NOT NULL,
  cod_plan text,
  coberturas_opcionales jsonb NOT NULL DEFAULT '[]',
  plan_elegido jsonb
);
CREATE INDEX cotizaciones_ip_creada ON cotizaciones (ip, creada_en);

CREATE TABLE contactos (
  id serial PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  email text NOT NULL,
  prefijo text,
  telefono text,
  app text,
  hash text,
  navegador text,
  version text
);

CREATE TABLE campanias (
  id serial PRIMARY KEY,
  creada_en timestamptz NOT NULL DEFAULT now(),
  ref_id text,
  gclid text,
  gad_source text,
  gad_campaignid text,
  url_campaign text,
  fbclid text,
  utm_campaign text
);

CREATE TABLE personas (
  id serial PRIMARY KEY,
  creada_en timestamptz NOT NULL DEFAULT now(),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  type_doc text NOT NULL,
  number_doc text NOT NULL,
  genere text NOT NULL,
  birth_date date NOT NULL,
  email text NOT NULL,
  area_cod text NOT NULL,
  phone_number text NOT NULL,
  ddjj jsonb NOT NULL
);

CREATE TABLE domicilios (
  id serial PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  zip_code text NOT NULL,
  cod_location text NOT NULL,
  location text NOT NULL,
  id_province text NOT NULL,
  province text NOT NULL,
  department text NOT NULL,
  address_name text NOT NULL,
  number_address text,
  no_address_number boolean NOT NULL,
  floor text,
  depto text,
  check_tyc boolean NOT NULL,
  zona text NOT NULL
);

CREATE TABLE rechazos (
  id serial PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  motivo text NOT NULL
);

CREATE TABLE medios_pago (
  id uuid PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  tipo text NOT NULL CHECK (tipo IN ('TC', 'CBU')),
  marca text,
  banco_codigo text,
  ultimos4 text NOT NULL,
  mascara text NOT NULL,
  descripcion text NOT NULL,
  titular text,
  vencimiento text,
  numero_cifrado text NOT NULL
);

CREATE SEQUENCE numero_solicitud_seq START 1000;
CREATE TABLE solicitudes (
  numero_solicitud integer PRIMARY KEY DEFAULT nextval('numero_solicitud_seq'),
  creada_en timestamptz NOT NULL DEFAULT now(),
  actualizada_en timestamptz NOT NULL DEFAULT now(),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  cod_plan text NOT NULL,
  coberturas_opcionales jsonb NOT NULL,
  plan jsonb NOT NULL,
  premio numeric(14, 2) NOT NULL,
  medio_pago_id uuid NOT NULL REFERENCES medios_pago (id),
  persona jsonb NOT NULL,
  domicilio jsonb NOT NULL,
  estado text NOT NULL DEFAULT 'PENDIENTE' CHECK (estado IN ('PENDIENTE', 'EMITIDA', 'RECHAZADA')),
  emision_pedida boolean NOT NULL DEFAULT false,
  num_secu_pol text,
  mensaje text
);
CREATE INDEX solicitudes_pendientes ON solicitudes (estado, emision_pedida);

CREATE SEQUENCE poliza_seq START 1;
CREATE TABLE polizas (
  num_secu_pol text PRIMARY KEY,
  emitida_en timestamptz NOT NULL DEFAULT now(),
  numero_solicitud integer NOT NULL UNIQUE REFERENCES solicitudes (numero_solicitud),
  ref_id uuid NOT NULL REFERENCES cotizaciones (ref_id),
  cod_plan text NOT NULL,
  premio numeric(14, 2) NOT NULL,
  vigencia_desde date NOT NULL,
  vigencia_hasta date NOT NULL
);

CREATE TABLE logs (
  id serial PRIMARY KEY,
  creado_en timestamptz NOT NULL DEFAULT now(),
  app text NOT NULL,
  proceso text NOT NULL,
  proceso_detalle text NOT NULL,
  dni text,
  id_cif text,
  id_extra text,
  poliza text,
  hash text,
  navegador text,
  version text,
  request text,
  response text
);
