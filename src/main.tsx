/**
 * Entry point of the web app: the stylesheet and the start-up (src/boot/start.ts, which says how it is phased).
 * On a prerendered page this module is fetched by public/arranque.js after the first paint.
 */
import './styles.css';
import { boot } from './boot/start';

void boot();
