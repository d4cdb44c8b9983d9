// The three sending limits of a WhatsApp Cloud API number, as the sandbox enforces them.
// Sources: Meta's "Messaging limits" (a business portfolio may open conversations with
// 250 / 2,000 / 10,000 / 100,000 / unlimited unique users in a moving 24 hours),
// "Throughput" (80 messages per second per business phone number by default) and the
// pair rate limit in "Error codes" (131056: about one message every 6 seconds to the same
// user, with short bursts allowed; third-party measurements put the burst near 45).

export type LimitRefusal = 'throughput' | 'tier' | 'pair';

export interface TierSettings {
  /** Unique recipients of business-initiated (template) messages in 24 hours; null: unlimited. */
  readonly uniqueRecipientsPer24h: number | null;
  /** Messages per second per phone number id. */
  readonly messagesPerSecond: number;
  /** Same-recipient limit: a burst, then one message per `pairIntervalMs`; null: off. */
  readonly pairBurst: number | null;
  readonly pairIntervalMs: number;
}

export const defaultTier: TierSettings = {
  uniqueRecipientsPer24h: null,
  messagesPerSecond: 80,
  pairBurst: 45,
  pairIntervalMs: 6000,
};

const DAY_MS = 86_400_000;

export class WhatsAppLimits {
  private settings: TierSettings;
  /** Sends in the last second, per phone number id. */
  private recentSends = new Map<string, number[]>();
  /** Last business-initiated message per recipient (the 24-hour unique count). */
  private lastTemplateTo = new Map<string, number>();
  /** Token bucket per recipient: tokens left and when it was last filled. */
  private pairs = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly initial: TierSettings,
    private readonly now: () => number,
  ) {
    this.settings = initial;
  }

  get current(): TierSettings {
    return this.settings;
  }

  set(settings: Partial<TierSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Unique recipients of templates in the last 24 hours. */
  uniqueRecipients(): number {
    this.prune();
    return this.lastTemplateTo.size;
  }

  /** What Meta would refuse this send for, without counting it. */
  check(phoneNumberId: string, to: string, businessInitiated: boolean): LimitRefusal | undefined {
    const t = this.now();
    // A clock moved back (POST /dev/clock) leaves sends "in the future": they no longer count.
    const recent = (this.recentSends.get(phoneNumberId) ?? []).filter((at) => at <= t && t - at < 1000);
    this.recentSends.set(phoneNumberId, recent);
    if (recent.length >= this.settings.messagesPerSecond) return 'throughput';

    const cap = this.settings.uniqueRecipientsPer24h;
    if (businessInitiated && cap !== null) {
      this.prune();
      if (!this.lastTemplateTo.has(to) && this.lastTemplateTo.size >= cap) return 'tier';
    }

    if (this.settings.pairBurst !== null && this.pairTokens(to, t) < 1) return 'pair';
    return undefined;
  }

  /** Counts an accepted send against every limit. */
  record(phoneNumberId: string, to: string, businessInitiated: boolean): void {
    const t = this.now();
    const recent = this.recentSends.get(phoneNumberId);
    if (recent) recent.push(t);
    else this.recentSends.set(phoneNumberId, [t]);
    if (businessInitiated) this.lastTemplateTo.set(to, t);
    if (this.settings.pairBurst !== null) this.pairs.set(to, { tokens: this.pairTokens(to, t) - 1, at: t });
  }

  /** Forgets every count and returns to the settings given at start. */
  reset(): void {
    this.settings = this.initial;
    this.recentSends.clear();
    this.lastTemplateTo.clear();
    this.pairs.clear();
  }

  private pairTokens(to: string, t: number): number {
    const burst = this.settings.pairBurst ?? Infinity;
    const bucket = this.pairs.get(to);
    if (!bucket || bucket.at > t) return burst;
    return Math.min(burst, bucket.tokens + (t - bucket.at) / this.settings.pairIntervalMs);
  }

  private prune(): void {
    const t = this.now();
    for (const [to, at] of this.lastTemplateTo) if (t - at >= DAY_MS) this.lastTemplateTo.delete(to);
  }
}
