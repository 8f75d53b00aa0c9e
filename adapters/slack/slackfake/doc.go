// Package slackfake is a fake Slack for the slack adapter's tests: the Web
// API methods the adapter calls (auth.test, apps.connections.open,
// chat.postMessage/update/delete/postEphemeral, views.open, users.info,
// conversations.history, conversations.replies, conversations.open, files.getUploadURLExternal,
// files.completeUploadExternal and the upload URL between them) and a
// Socket Mode WebSocket, over real HTTP and WebSockets on 127.0.0.1, so
// tests run the real slack-go client.
//
// It speaks the wire formats Slack does: form-encoded chat methods with
// blocks as a JSON string, JSON views.open with a Bearer token, the app
// token for apps.connections.open, "seconds.micros" timestamps, and 429
// with Retry-After on demand (RateLimit). Its WebSocket accepts slack-go's
// Origin, says hello, pings, delivers envelopes, reads acks, sends again
// what was not acknowledged when the app reconnects, and asks the app to
// reconnect on demand (Disconnect). It enforces Block Kit's limits the
// way Slack does, by failing the call, msg_blocks_too_long past 12,000
// characters of text in a message's blocks included. conversations.history
// and conversations.replies page as Slack does (limit, cursor, oldest,
// latest, inclusive); with Options.NotMarketplace they keep to Slack's
// limits, since May 2025, for apps not approved for its Marketplace: one
// call per method a minute (more answer 429 with Retry-After; TooMany
// counts them) and at most 15 messages a page. Timestamps follow
// Options.Clock.
//
// Channels the app has not joined (AddOutsideChannel) refuse its calls
// with not_in_channel, private ones with channel_not_found, archived ones
// (ArchiveChannel) with is_archived; slash commands and clicks carry a
// response_url on the fake that shows its user an ephemeral message
// wherever they acted.
//
// It keeps what people see: messages per channel and thread (with the
// persona name), ephemeral messages and opened modals per user, and the
// files each user received in their direct message (DM(user) is its
// channel: "D" and the user's ID). A submitted modal closes on a plain
// ack; an ack with response_action "errors" keeps it open for another
// Submit and shows its errors (a Refusal, which Harness.Private shows as
// text). Harness drives it as bottest's conformance suite expects. Named slackfake, not
// slacktest, to keep it apart from slack-go's own slacktest package, which
// has no Socket Mode semantics.
package slackfake
