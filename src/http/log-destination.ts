import pino from 'pino';
import onExit from 'on-exit-leak-free';

/** Lines gathered before they are handed on: about 50 access lines. */
const BATCH_CHARS = 16 * 1024;
const FLUSH_EVERY_MS = 1_000;

interface Target {
  write(text: string): boolean;
  flush(done?: (err?: Error) => void): void;
  flushSync(): void;
}

/**
 * The service's log destination: lines are gathered here and handed to pino's non-blocking
 * stdout stream (sonic-boom) 16 KiB at a time, at least every second, and before the process
 * exits. sonic-boom measures the UTF-8 length of its whole pending buffer on every write, so
 * line by line it cost about 2 µs per line at 16,000 lines a second; a batch is measured once.
 *
 * The batch registers its exit flush before the stream registers its own, so the lines still
 * here are in the stream when the stream writes out what it holds.
 */
export class LogDestination {
  private lines: string[] = [];
  private chars = 0;
  private readonly target: Target;
  private readonly timer: NodeJS.Timeout;

  constructor(fd = 1) {
    onExit.register(this, (destination) => destination.flushSync());
    this.target = pino.destination({ dest: fd, sync: false, minLength: 0 });
    this.timer = setInterval(() => this.handOver(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.handOver();
    return true;
  }

  /** pino's `logger.flush(cb)`: what is gathered goes out now; `done` runs once it is written. */
  flush(done?: (err?: Error) => void): void {
    this.handOver();
    this.target.flush(done);
  }

  flushSync(): void {
    this.handOver();
    this.target.flushSync();
  }

  private handOver(): void {
    if (this.chars === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.target.write(text);
  }
}
