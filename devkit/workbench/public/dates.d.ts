// Types for dates.js, which the browser loads as is (the page has no build step).
export function slackDate(
  seconds: number,
  format: string,
  options?: { now?: Date; timeZone?: string; locale?: string },
): string;
export function localizeDates(root: object): void;
