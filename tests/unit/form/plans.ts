/** Plans and coverages as the quote call returns them (schemas/api/README.md › Plan, Cobertura). */
import { pesosEnteros } from '../../../src/core/money.ts';
import type { Cobertura, Plan } from '../../../src/form/widgets/PlanCardsWidget';

export const cob = (codCobertura: string, descCobertura: string, sumaAsegurada: number, extra: Partial<Cobertura> = {}): Cobertura => ({
  codCobertura,
  descCobertura,
  sumaAsegurada,
  sumaAseguradaString: pesosEnteros(sumaAsegurada),
  mostrar: 'S',
  textoWeb: '',
  selecc: 'S',
  ...extra,
});

const optional = [
  cob('501', 'Cámaras fotográficas', 500000, {
    selecc: 'N',
    textoWeb: 'Robo y daño accidental',
    primaCobertura: 1234.5,
    premioCuotaAdicional: 1500.6,
  }),
  cob('502', 'Notebooks y tablets', 1500000, { selecc: 'N', primaCobertura: 2100, premioCuotaAdicional: 2552.4 }),
];

export const plans: Plan[] = [
  {
    codPlan: 'BASICO',
    nombre: 'Básico',
    descripcion: 'Lo esencial',
    premio: 182813.95,
    premioCuota: 15234.5,
    ultimaCuota: 15234.45,
    cuotas: 12,
    coberturas: { primary: [cob('101', 'Incendio edificio', 45000000)], secondary: [], urgencyAssistance: [], optional },
  },
  {
    codPlan: 'INTERMEDIO',
    nombre: 'Intermedio',
    recomendado: true,
    premio: 328155.96,
    premioCuota: 27346.33,
    ultimaCuota: 27346.33,
    cuotas: 12,
    coberturas: {
      primary: [cob('101', 'Incendio edificio', 45000000), cob('102', 'Robo contenido', 3000000)],
      secondary: [cob('201', 'Cristales', 250000), cob('299', 'Cobertura oculta', 1, { mostrar: 'N' })],
      urgencyAssistance: [cob('301', 'Cerrajería de urgencia', 0, { textoWeb: 'Hasta 3 servicios por año' })],
      optional,
    },
  },
  {
    codPlan: 'INTEGRAL',
    nombre: 'Integral',
    premio: 14814813.6,
    premioCuota: 1234567.8,
    cuotas: 12,
    coberturas: {
      primary: [cob('101', 'Incendio edificio', 90000000)],
      secondary: [],
      urgencyAssistance: [],
      optional: optional.slice(0, 1),
    },
  },
];
