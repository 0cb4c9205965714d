/** Live changes: answers follow the form, and changed fields' `onChange` calls run (latest reply wins). */
export { changedCalls, createLiveChanges } from './model.ts';
