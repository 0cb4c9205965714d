import { describe, expect, it } from 'vitest';
import { browserName, deviceType } from './device';

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
  edgeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  operaDesktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  operaMini: 'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  firefoxIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  safariIpadOld:
    'Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  kindle:
    'Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/131.3.1 like Chrome/131.0.6778.200 Safari/537.36',
  facebookIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/480.0.0.40.106]',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

describe('deviceType (SPEC §9)', () => {
  it.each([
    ['Chrome on Android', UA.chromeAndroid],
    ['Chrome on iPhone', UA.chromeIos],
    ['Samsung Internet', UA.samsung],
    ['Firefox on Android', UA.firefoxAndroid],
    ['Safari on iPhone', UA.safariIphone],
    ['Safari on an old iPad', UA.safariIpadOld],
    ['Kindle Fire (Silk)', UA.kindle],
    ['Opera Mini', UA.operaMini],
    ['Facebook in-app browser on iPhone', UA.facebookIos],
  ])('%s is mobile', (_, ua) => {
    expect(deviceType(ua)).toBe('mobile');
  });

  it.each([
    ['Chrome on Windows', UA.chromeWindows],
    ['Edge on Windows', UA.edgeWindows],
    ['Firefox on macOS', UA.firefoxMac],
    ['Safari on macOS', UA.safariMac],
    ['Firefox on Linux', UA.linuxFirefox],
  ])('%s is desktop', (_, ua) => {
    expect(deviceType(ua)).toBe('desktop');
  });

  it('treats iPadOS Safari (Macintosh UA with touch) as mobile, a touchless Mac as desktop', () => {
    expect(deviceType(UA.safariMac, 5)).toBe('mobile');
    expect(deviceType(UA.safariMac, 0)).toBe('desktop');
    expect(deviceType(UA.chromeWindows, 10)).toBe('desktop'); // touch-screen Windows laptop
  });
});

describe('browserName', () => {
  it.each([
    [UA.chromeWindows, 'Chrome'],
    [UA.chromeAndroid, 'Chrome'],
    [UA.chromeIos, 'Chrome'],
    [UA.edgeWindows, 'Edge'],
    [UA.edgeAndroid, 'Edge'],
    [UA.samsung, 'Samsung Internet'],
    [UA.operaDesktop, 'Opera'],
    [UA.operaMini, 'Opera'],
    [UA.firefoxMac, 'Firefox'],
    [UA.firefoxAndroid, 'Firefox'],
    [UA.firefoxIos, 'Firefox'],
    [UA.safariMac, 'Safari'],
    [UA.safariIphone, 'Safari'],
    [UA.facebookIos, 'Otro'],
    ['', 'Otro'],
  ])('%s → %s', (ua, name) => {
    expect(browserName(ua)).toBe(name);
  });
});
