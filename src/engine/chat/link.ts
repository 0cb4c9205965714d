/** The chat link's address, apart from the model: the screens build it without loading the engine's units. */
import type { ChatDef } from '../../core/flow/types.ts';

/**
 * The chat's address: `chat.link` with `{phone}` and `{text}` replaced, each URL-encoded.
 * @param text the opening message, already translated (es.json › app.<chat.text>); '' for none
 */
export function chatHref(chat: Pick<ChatDef, 'link'>, phone: string, text: string): string {
  return chat.link.replaceAll('{phone}', encodeURIComponent(phone)).replaceAll('{text}', encodeURIComponent(text));
}
