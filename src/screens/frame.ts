/**
 * Whether the step on screen is its frame: rendered before the journey is restored (the prerendered HTML and its
 * hydration), when it must equal its prerendered HTML whatever was restored, so it shows nothing of the journey. The
 * step's route provides it (src/app/router.tsx); the page frame (Layout) and the screens read it.
 */
import { createContext, useContext } from 'react';

export const FrameContext = createContext(false);

/** @returns true while the step shows its frame (no journey state may be rendered) */
export const useFrame = (): boolean => useContext(FrameContext);
