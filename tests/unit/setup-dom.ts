/**
 * Set-up of the `dom` Vitest project (jsdom; vite.config.ts), after tests/unit/setup.ts.
 * - Testing Library's `findBy…`/`waitFor` wait on the DOM (a MutationObserver, not a sleep) up to 15 s instead of its
 *   1 s default: a form step suspends until its validator chunk is imported, which takes seconds on a 2-core machine
 *   running other work; the wait ends as soon as the element shows up, so an idle machine is as fast as before.
 * - jsdom lays nothing out and has no scrollIntoView; the error summary's links call it after focusing the field
 *   (src/form/templates): a no-op here, as scrolling is the browser's (the e2e specs check what is on screen).
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 15_000 });

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
