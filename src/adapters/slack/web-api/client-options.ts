/** The Slack Web API client as every Rampart process builds it (the Bolt app, notifications, `rampart doctor`). */

/**
 * Web API client options chosen on purpose: no automatic retries (a retried chat.postMessage
 * can post twice); rate-limited calls are rejected and retried by our notify queue instead.
 */
export const slackClientOptions = (apiUrl: string | undefined) => ({
  ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
  retryConfig: { retries: 0 },
  rejectRateLimitedCalls: true,
  timeout: 10_000,
});
