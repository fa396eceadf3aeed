import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core, for every browser test (never a downloaded browser).
 * Without the background-networking flags Chromium keeps dialling Google on a machine with no internet;
 * SwiftShader gives headless WebGL for the viewer.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
