/** The chat link's address from the flow's template. */
import { describe, expect, it } from 'vitest';
import flowJson from '../../../flow/flow.json';
import type { FlowDef } from '../../core/flow/types.ts';
import { chatHref } from './link.ts';

describe('chatHref', () => {
  it("fills the shipped flow's WhatsApp link with the phone and the URL-encoded opening message", () => {
    const chat = (flowJson as unknown as FlowDef).chat!;
    expect(chatHref(chat, '5491100000000', 'Hola, quiero consultar por el seguro de hogar.')).toBe(
      'https://wa.me/5491100000000?text=Hola%2C%20quiero%20consultar%20por%20el%20seguro%20de%20hogar.',
    );
  });

  it('leaves the text empty when the flow names none', () => {
    expect(chatHref({ link: 'https://chat.example/{phone}?m={text}' }, '54 11', '')).toBe('https://chat.example/54%2011?m=');
  });
});
