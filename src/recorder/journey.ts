/**
 * A journey fixture's shape (flow/journey.schema.json): what a tester writes or the recorder (recorder.tsx) records,
 * and what the replays (tools/replay/) read. Types only, so the browser's recorder and the Node replays share them.
 */
import type { ChosenPlanPin, PlanPin } from './pins.ts';

export type JourneyAction = 'next' | 'back' | 'reload' | { wait: number } | { goto: string } | { click: string };

export interface ExpectedCall {
  method: 'GET' | 'POST';
  /** Path under /api; `*` matches one segment. */
  path: string;
  body?: Record<string, unknown>;
}

export interface StubbedReply {
  method: 'GET' | 'POST';
  path: string;
  status?: number;
  body: unknown;
  times?: number;
}

export interface JourneyStep {
  route: string;
  answers?: Record<string, unknown>;
  expect?: {
    texts?: string[];
    premio?: { min?: number; max?: number };
    policyNumber?: boolean;
    storageExcludes?: string[];
    fieldErrors?: string[];
    query?: string;
    noTexts?: string[];
    testIds?: string[];
    noTestIds?: string[];
    /** Pinned money (src/recorder/pins.ts). */
    planes?: Record<string, PlanPin>;
    plan?: ChosenPlanPin | Record<string, never>;
  };
  calls?: ExpectedCall[];
  stubs?: StubbedReply[];
  actions?: JourneyAction[];
}

export interface Journey {
  name: string;
  proves: string;
  url: string;
  viewport?: { width: number; height: number };
  stubs?: StubbedReply[];
  localStorage?: Record<string, string>;
  steps: JourneyStep[];
}
