/**
 * A bounded single-producer, single-consumer queue: the producer waits while it is
 * full, so a source read ahead of its turn holds at most `capacity` (by weight: a
 * batch of records weighs its record count).
 */
export class Channel<T> {
  private buffer: T[] = [];
  private weights: number[] = [];
  private held = 0;
  private closed = false;
  private cancelled = false;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;

  constructor(private readonly capacity = 256) {}

  /** Resolves false once the consumer has gone (the producer should stop). */
  async push(item: T, weight = 1): Promise<boolean> {
    while (this.held >= this.capacity && !this.cancelled) await new Promise<void>((r) => (this.wakeProducer = r));
    if (this.cancelled) return false;
    this.buffer.push(item);
    this.weights.push(weight);
    this.held += weight;
    this.wake('consumer');
    return true;
  }

  close(): void {
    this.closed = true;
    this.wake('consumer');
  }

  cancel(): void {
    this.cancelled = true;
    this.buffer = [];
    this.weights = [];
    this.held = 0;
    this.wake('producer');
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  async *drain(): AsyncGenerator<T> {
    for (;;) {
      if (this.buffer.length > 0) {
        const item = this.buffer.shift()!;
        this.held -= this.weights.shift()!;
        this.wake('producer');
        yield item;
        continue;
      }
      if (this.closed || this.cancelled) return;
      await new Promise<void>((r) => (this.wakeConsumer = r));
    }
  }

  private wake(who: 'consumer' | 'producer'): void {
    const f = who === 'consumer' ? this.wakeConsumer : this.wakeProducer;
    if (who === 'consumer') this.wakeConsumer = null;
    else this.wakeProducer = null;
    f?.();
  }
}
