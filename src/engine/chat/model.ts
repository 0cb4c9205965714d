/**
 * The chat module the flow declares (flow.json › chat): whether the chat link shows (a named condition over the
 * state), and the phone it opens (a pointer into the state); the link's address: ./link.ts. No `chat` in the flow → never shown.
 */
import type { Store } from 'effector';
import { getAt, when, type Flow, type FlowState } from '../core/index.ts';

/** `$chatEnabled`: the flow's `chat.enabledWhen` holds; `$chatPhone`: the string at `chat.phone`, or null. */
export function createChat({ flow, $state }: { flow: Flow; $state: Store<FlowState> }) {
  const chat = flow.chat;
  const $chatEnabled = $state.map((state) => (chat ? when(flow, chat.enabledWhen, state) : false));
  const $chatPhone = $state.map((state) => (chat?.phone ? ((getAt(state, chat.phone) as string | undefined) ?? null) : null));
  return { $chatEnabled, $chatPhone };
}
