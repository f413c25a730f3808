/** Chart bench: the 30-day chart every chart row draws. */
export function thirtyDays() {
  const categories = Array.from({ length: 30 }, (_, i) => `11-${String(i + 1).padStart(2, '0')}`);
  return {
    kind: 'bar' as const,
    title: 'USDC out per day',
    categories,
    yLabel: 'USDC',
    series: [
      { name: 'USDC out', values: categories.map((_, i) => 1000 + ((i * 7919) % 5000)) },
      { name: 'Limit', values: categories.map(() => 50_000), asLine: true },
    ],
  };
}
