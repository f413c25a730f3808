/**
 * The driver's requests delivered over the fake's Socket Mode instead of signed HTTP: a form body
 * with `payload=` is an interaction, any other form body a slash command, JSON an Events API
 * callback — the same payloads Slack sends in an envelope (https://api.slack.com/apis/socket-mode).
 */
import type { FakeSocketMode } from './fake-slack/socket-mode.js';
import type { JsonObject } from './fake-slack/types.js';
import type { DriverTransport } from './slack-driver.js';

export function socketModeTransport(socket: FakeSocketMode): DriverTransport {
  return async (rawBody, contentType) => {
    let acked: unknown;
    if (contentType.includes('application/json')) {
      acked = await socket.deliver('events_api', JSON.parse(rawBody) as JsonObject);
    } else {
      const form = new URLSearchParams(rawBody);
      const payload = form.get('payload');
      acked =
        payload === null
          ? await socket.deliver('slash_commands', Object.fromEntries(form))
          : await socket.deliver('interactive', JSON.parse(payload) as JsonObject);
    }
    // A bare ack carries no payload: the same as an empty HTTP 200.
    return { status: 200, body: acked ?? '' };
  };
}
