/**
 * Delay before each attempt of a delivery, in milliseconds: the first goes at once,
 * the eighth about 28 hours after the event. After the last one fails the delivery is `failed`
 * and the partner reconciles with the events API or asks for a redelivery.
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/**
 * Milliseconds to wait before attempt `attemptsMade + 1`, or null when no attempt is left.
 * `scale` shortens (tests: 0.001) or stretches the whole schedule.
 */
export function delayBeforeNextAttempt(attemptsMade: number, scale: number): number | null {
  const delay = RETRY_SCHEDULE_MS[attemptsMade];
  return delay === undefined ? null : Math.round(delay * scale);
}
