/** The chat module the flow declares: whether its link shows, the phone it opens, the link's address. */
export { chatHref } from './link.ts';
export { createChat } from './model.ts';
