import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';

const isRoot = () => process.getuid?.() === 0;

/**
 * Makes folders refuse new files, as a broken storage folder does: `chattr +i` as root (EPERM; root
 * ignores permission bits), else `chmod 555` (EACCES). Answers the undo.
 */
export async function makeUnwritable(dirs: string[]): Promise<() => Promise<void>> {
  if (isRoot()) {
    execFileSync('chattr', ['+i', ...dirs]);
    return async () => void execFileSync('chattr', ['-i', ...dirs]);
  }
  for (const dir of dirs) await chmod(dir, 0o555);
  return async () => {
    for (const dir of dirs) await chmod(dir, 0o755);
  };
}

export interface SmallDisk {
  /** Writes one file as large as the space left: the disk is full (ENOSPC) after it. */
  fill(): Promise<void>;
  /** Removes the filler and remounts read-only (EROFS) or read-write. */
  remount(mode: 'ro' | 'rw'): void;
  unmount(): void;
}

/**
 * A 512 KB tmpfs mounted over `dir` (hiding what was there), for real ENOSPC and EROFS. Null when this
 * process may not mount (not root, or no CAP_SYS_ADMIN): the caller skips those cases.
 */
export async function mountSmallDisk(dir: string): Promise<SmallDisk | null> {
  await mkdir(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'helix-test-storage', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const filler = `${dir}/filler.bin`;
  return {
    async fill() {
      await writeFile(filler, Buffer.alloc(1024 * 1024)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOSPC') throw error;
      });
    },
    remount(mode) {
      execFileSync('rm', ['-f', filler]);
      execFileSync('mount', ['-o', `remount,${mode}`, dir]);
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    },
  };
}
