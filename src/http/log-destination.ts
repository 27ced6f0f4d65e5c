import pino from 'pino';
import onExit from 'on-exit-leak-free';

/** Bytes gathered before they are handed on: about 50 access lines. */
const BATCH_BYTES = 16 * 1024;
const FLUSH_EVERY_MS = 1_000;
/** The most bytes one UTF-16 code unit takes in UTF-8. */
const MAX_BYTES_PER_UNIT = 3;

interface Target {
  write(bytes: Buffer): boolean;
  flushSync(): void;
}

/**
 * The service's log destination: lines are copied into a buffer as they come and written to
 * stdout (through pino's sonic-boom, in buffer mode) 16 KiB at a time, at least every second, and
 * before the process exits. Line by line, sonic-boom measured the UTF-8 length of its whole
 * pending text on every write (about 2 µs a line at 16,000 lines a second); gathered as strings,
 * each line's pieces stayed alive until the batch was joined. Copied at once, a line's string
 * dies young and a batch is one buffer.
 *
 * A batch is written synchronously, as Node writes process.stdout to files and pipes on Linux:
 * one write per about 50 lines, and nothing is ever in flight, so a flush or the exit flush
 * (registered before the stream's own) writes every line, in order.
 */
export class LogDestination {
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private readonly target: Target;
  private readonly timer: NodeJS.Timeout;

  constructor(fd = 1) {
    onExit.register(this, (destination) => destination.flushSync());
    this.target = pino.destination({ dest: fd, sync: true, minLength: 0, contentMode: 'buffer' }) as unknown as Target;
    this.timer = setInterval(() => this.handOver(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  write(line: string): boolean {
    if (this.used + line.length * MAX_BYTES_PER_UNIT > BATCH_BYTES) {
      this.handOver();
      // A line longer than a batch (a long stack trace) goes on by itself.
      if (line.length * MAX_BYTES_PER_UNIT > BATCH_BYTES) {
        this.target.write(Buffer.from(line));
        return true;
      }
    }
    this.used += this.batch.write(line, this.used);
    return true;
  }

  /** pino's `logger.flush(cb)`: what is gathered goes out now; `done` runs once it is written. */
  flush(done?: (err?: Error) => void): void {
    this.handOver();
    done?.();
  }

  flushSync(): void {
    this.handOver();
    this.target.flushSync();
  }

  private handOver(): void {
    if (this.used === 0) return;
    // Should a write fail, the stream keeps the bytes to retry: the next lines go to a new buffer.
    const bytes = this.batch.subarray(0, this.used);
    this.batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
    this.target.write(bytes);
  }
}
