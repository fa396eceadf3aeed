// The part of yauzl 3's promise API the USDZ test reads (its @types package describes yauzl 2).
declare module 'yauzl' {
  export interface Entry {
    fileName: string;
    compressionMethod: number;
    compressedSize: number;
    uncompressedSize: number;
  }
  export interface ZipFile {
    eachEntry(): AsyncIterable<Entry>;
    readLocalFileHeaderPromise(
      entry: Entry,
      options?: { minimal?: boolean },
    ): Promise<{ fileDataStart: number }>;
    openReadStreamPromise(entry: Entry): Promise<NodeJS.ReadableStream>;
    close(): void;
  }
  export function fromBufferPromise(buffer: Buffer, options?: { lazyEntries?: boolean }): Promise<ZipFile>;
}
