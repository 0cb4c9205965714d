/** The app's single API client (base `/api`, SPEC §7). */
import { createApiClient } from './client';

export const api = createApiClient();
