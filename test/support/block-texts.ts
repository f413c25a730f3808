/**
 * Every text a person can read in Block Kit (mrkdwn and plain), in order. Pure (no Redis, no
 * sockets), so unit tests may import it; harness.ts re-exports it.
 */
export function readableTexts(blocks: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, inner] of Object.entries(v)) {
        if (k === 'text' && typeof inner === 'string') out.push(inner);
        else walk(inner);
      }
    }
  };
  walk(blocks);
  return out;
}
