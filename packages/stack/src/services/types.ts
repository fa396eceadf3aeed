import path from 'node:path';

/** A backing service the stack found or started. */
export interface Service {
  url: string;
  /** external: given by an environment variable; local: found on 127.0.0.1; embedded: started by the stack. */
  kind: 'external' | 'local' | 'embedded';
  /** One line for the start-up summary. */
  description: string;
  /** Stops what the stack started (a no-op for services it only found). */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Folder for the embedded services' data (default <repo>/.data). */
  dataDir?: string;
  log?: (message: string) => void;
  /** Hide the embedded services' output. */
  quiet?: boolean;
}

export const noStop = async (): Promise<void> => {};

/** Hides a password in a URL before printing it. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** A path relative to the working directory when it is inside it, else absolute. */
export function displayPath(target: string): string {
  const relative = path.relative(process.cwd(), target);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target;
}
