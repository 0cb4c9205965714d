/** The chat module the flow declares: whether its link shows and the phone it opens. */
export { createChat } from './model.ts';
