/**
 * The bot scopes manifest.yml asks for (a test keeps the two equal), and why each is needed.
 * `rampart doctor` compares them with what auth.test says the token was granted.
 */
export const BOT_SCOPES = [
  'commands', // slash commands
  'chat:write', // cards, replies and ephemerals
  'usergroups:read', // approver groups resolved at click time (usergroups.users.list)
  'channels:read', // doctor: the bot is in a public approvals channel (conversations.info)
  'groups:read', // doctor: … or a private one
  'users:read', // doctor: each approver resolves (users.info)
  'channels:history', // a card whose posting was interrupted is found by its metadata
  'groups:history', // … in a private approvals channel
  'files:read', // the CSV picked in /batch, downloaded with the bot token
  'files:write', // a batch's rows and receipt uploaded in its card's thread
] as const;
