import '@testing-library/jest-dom/vitest';

// jsdom lays nothing out and has no scrollIntoView; the error summary's links call it after focusing the field
// (src/form/templates): a no-op here, as scrolling is the browser's (the e2e specs check what is on screen).
if (typeof Element !== 'undefined' && !Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
