/** Set-up of every Vitest project of the web app (vite.config.ts): jest-dom's matchers (`toBeVisible`, …). */
import '@testing-library/jest-dom/vitest';
