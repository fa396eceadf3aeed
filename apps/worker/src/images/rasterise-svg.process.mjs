// A child process that rasterises one SVG with sharp and exits (rasterise-in-child.ts forks it). Plain
// JavaScript so plain node starts it quickly, without the TypeScript loader. Its parent kills it when
// the image check's budget is spent: librsvg cannot be interrupted from inside the worker process.
import sharp from 'sharp';

// One libvips thread: a bomb being rasterised uses one core, not all of them, until it is killed.
sharp.concurrency(1);
sharp.cache(false);

// The worker died or gave up: stop at once rather than finish a render nobody waits for.
process.once('disconnect', () => process.exit(1));

process.once('message', async (request) => {
  let answer;
  try {
    const { data, info } = await sharp(Buffer.from(request.bytes), request.input)
      .rotate()
      .resize(request.resize)
      .webp(request.webp)
      .timeout({ seconds: request.seconds })
      .toBuffer({ resolveWithObject: true });
    answer = { ok: true, bytes: data, width: info.width, height: info.height };
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  process.send(answer, () => process.exit(0));
});
